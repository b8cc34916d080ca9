package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;

class ChainVerifierTest {
    private static final ObjectMapper M = new ObjectMapper();
    private final ChainVerifier verifier = new ChainVerifier();

    /** A valid chain of n entries for tenant t, starting at seq 0. */
    static List<byte[]> chain(String tenant, int n) {
        List<byte[]> out = new ArrayList<>();
        byte[] prev = EntryHash.GENESIS;
        for (int i = 0; i < n; i++) {
            ObjectNode e = M.createObjectNode();
            e.put("v", 1).put("tenant", tenant).put("seq", i).put("ts", "2026-11-30T10:00:0" + (i % 10) + "Z")
                    .put("kind", "tool_call").put("prev", HexFormat.of().formatHex(prev));
            e.put("action", i % 2 == 0 ? "allow" : "block").put("micros", 12.5 * i);
            byte[] bytes = Jcs.canonicalize(e);
            out.add(bytes);
            prev = EntryHash.of(bytes);
        }
        return out;
    }

    private static List<ChainFailure.Kind> kinds(ChainVerifier.Result r) {
        return r.failures().stream().map(ChainFailure::kind).toList();
    }

    @Test
    void theEntryHashIsDomainSeparated() throws Exception {
        byte[] entry = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        byte[] expected = MessageDigest.getInstance("SHA-256")
                .digest("cloakgate/ledger-entry/v1\n{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(expected, EntryHash.of(entry));
        assertTrue(!java.util.Arrays.equals(MessageDigest.getInstance("SHA-256").digest(entry), EntryHash.of(entry)));
    }

    @Test
    void aValidChainVerifiesAndYieldsItsHashes() {
        List<byte[]> c = chain("acme", 50);
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertTrue(r.valid(), r.failures().toString());
        assertEquals(50, r.hashes().size());
        assertArrayEquals(EntryHash.of(c.get(7)), r.hashes().get(7));
        assertEquals(0, r.firstSeq());
        assertEquals(49, r.lastSeq());
        // a slice verifies against the hash of the entry before it
        assertTrue(verifier.verify("acme", c.subList(10, 20), EntryHash.of(c.get(9))).valid());
    }

    @Test
    void aFlippedByteIsFoundWhereverItLands() {
        List<byte[]> c = chain("acme", 10);
        byte[] e = c.get(4).clone();
        int at = new String(e, StandardCharsets.UTF_8).indexOf("\"allow\"") + 2;
        e[at] = (byte) 'x'; // "allow" -> "axlow": still valid JSON, a different entry
        c.set(4, e);
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertEquals(List.of(ChainFailure.Kind.PREV_MISMATCH), kinds(r));
        assertEquals(6, r.failures().get(0).line(), "the next entry no longer chains to it");
    }

    @Test
    void deletedSwappedAndTruncatedEntriesAreNamed() {
        List<byte[]> deleted = new ArrayList<>(chain("acme", 10));
        deleted.remove(3);
        assertEquals(List.of(ChainFailure.Kind.SEQ_GAP, ChainFailure.Kind.PREV_MISMATCH),
                kinds(verifier.verify("acme", deleted, EntryHash.GENESIS)));

        List<byte[]> swapped = new ArrayList<>(chain("acme", 10));
        Collections.swap(swapped, 2, 3);
        List<ChainFailure.Kind> k = kinds(verifier.verify("acme", swapped, EntryHash.GENESIS));
        assertTrue(k.contains(ChainFailure.Kind.SEQ_GAP) && k.contains(ChainFailure.Kind.SEQ_REORDER)
                && k.contains(ChainFailure.Kind.PREV_MISMATCH), k.toString());

        // a truncated tail still chains: only a checkpoint's size can show it (checked with the Merkle root)
        assertTrue(verifier.verify("acme", chain("acme", 10).subList(0, 7), EntryHash.GENESIS).valid());
    }

    @Test
    void everyFailureIsReportedNotOnlyTheFirst() {
        List<byte[]> c = chain("acme", 12);
        c.set(2, "{\"v\":1,\"v\":1}".getBytes(StandardCharsets.UTF_8)); // duplicate keys
        c.set(8, chain("other", 12).get(8)); // another tenant's entry spliced in
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        List<ChainFailure.Kind> k = kinds(r);
        assertTrue(k.contains(ChainFailure.Kind.MALFORMED_ENTRY), k.toString());
        assertTrue(k.contains(ChainFailure.Kind.TENANT_MISMATCH), k.toString());
        assertTrue(r.failures().stream().filter(f -> f.kind() == ChainFailure.Kind.PREV_MISMATCH).count() >= 2, k.toString());
        assertTrue(r.failures().stream().anyMatch(f -> f.line() == 3) && r.failures().stream().anyMatch(f -> f.line() == 9));
    }

    @Test
    void nonCanonicalBytesAndMissingFieldsAreNamed() {
        List<byte[]> c = chain("acme", 3);
        String spaced = new String(c.get(1), StandardCharsets.UTF_8).replace(",", ", ");
        c.set(1, spaced.getBytes(StandardCharsets.UTF_8));
        List<ChainFailure.Kind> k = kinds(verifier.verify("acme", c, EntryHash.GENESIS));
        assertTrue(k.contains(ChainFailure.Kind.NOT_CANONICAL), k.toString());

        List<byte[]> bare = List.of("{\"seq\":0,\"tenant\":\"acme\"}".getBytes(StandardCharsets.UTF_8));
        ChainVerifier.Result r = verifier.verify("acme", bare, EntryHash.GENESIS);
        assertEquals(4, r.failures().stream().filter(f -> f.kind() == ChainFailure.Kind.MISSING_FIELD).count(),
                r.failures().toString());

        List<byte[]> huge = List.of("{\"kind\":\"x\",\"n\":1e400,\"prev\":\"00\",\"seq\":0,\"tenant\":\"acme\",\"ts\":\"t\",\"v\":1}"
                .getBytes(StandardCharsets.UTF_8));
        assertTrue(verifier.verify("acme", huge, EntryHash.GENESIS).failures().stream()
                .anyMatch(f -> f.kind() == ChainFailure.Kind.MALFORMED_ENTRY && f.detail().contains("NUMBER_OUT_OF_RANGE")));
    }
}
