package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;

/**
 * Issue 15: an entry that cannot be read must not make the next one look out of order. A line whose seq cannot be
 * read still stands for one entry, so the next readable seq is compared with the last readable one plus the lines
 * between; an entry with a bad envelope field still has its seq and prev checked when those are readable.
 */
class ChainAfterMalformedTest {
    private static final ObjectMapper M = new ObjectMapper();
    private final ChainVerifier verifier = new ChainVerifier();

    private static List<ChainFailure.Kind> kinds(ChainVerifier.Result r) {
        return r.failures().stream().map(ChainFailure::kind).toList();
    }

    private static List<ChainFailure> of(ChainVerifier.Result r, ChainFailure.Kind kind) {
        return r.failures().stream().filter(f -> f.kind() == kind).toList();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The entry's JSON with {@code field} removed, re-canonicalised: strict and canonical, only incomplete. */
    private static byte[] without(byte[] entry, String field) throws Exception {
        ObjectNode e = (ObjectNode) M.readTree(entry);
        e.remove(field);
        return Jcs.canonicalize(e);
    }

    @Test
    void anUnparsableEntryIsNotFollowedByAFalseGap() {
        List<byte[]> c = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        byte[] e = c.get(4);
        c.set(4, java.util.Arrays.copyOf(e, e.length - 5)); // truncated: no seq can be read from it
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertTrue(kinds(r).contains(ChainFailure.Kind.MALFORMED_ENTRY), kinds(r).toString());
        assertTrue(of(r, ChainFailure.Kind.SEQ_GAP).isEmpty(), "seq 5 follows seq 3 and one unreadable entry: " + r.failures());
        assertTrue(of(r, ChainFailure.Kind.SEQ_REORDER).isEmpty(), r.failures().toString());
        // the chain is over bytes: the next entry does not chain to what now stands before it (true, and how the
        // alteration shows when the altered bytes still parse)
        assertEquals(List.of(6), of(r, ChainFailure.Kind.PREV_MISMATCH).stream().map(ChainFailure::line).toList());
        assertEquals(0, r.firstSeq());
        assertEquals(9, r.lastSeq());
    }

    @Test
    void severalUnparsableEntriesInARowStandForAsManySeqs() {
        List<byte[]> c = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        c.set(3, bytes("{\"seq\":3,"));
        c.set(4, bytes("not json"));
        c.set(5, bytes("{\"v\":1,\"v\":1}"));
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertTrue(of(r, ChainFailure.Kind.SEQ_GAP).isEmpty(), r.failures().toString());
        assertEquals(3, r.failures().stream().filter(f -> f.kind() == ChainFailure.Kind.MALFORMED_ENTRY)
                .map(ChainFailure::line).distinct().count(), r.failures().toString());
    }

    @Test
    void aRealGapAfterAnUnparsableEntryIsStillAGap() {
        List<byte[]> c = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        c.set(4, bytes("garbage"));
        c.remove(5); // seq 5 is gone: 6 follows 3 and one unreadable entry
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        List<ChainFailure> gaps = of(r, ChainFailure.Kind.SEQ_GAP);
        assertEquals(1, gaps.size(), r.failures().toString());
        assertEquals(6, gaps.get(0).line());
        assertTrue(gaps.get(0).detail().contains("seq 6 after 3"), gaps.get(0).detail());
    }

    @Test
    void anExtraUnparsableLineIsNeitherAGapNorAReorder() {
        List<byte[]> c = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        c.add(4, bytes("garbage"));
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertTrue(of(r, ChainFailure.Kind.SEQ_GAP).isEmpty() && of(r, ChainFailure.Kind.SEQ_REORDER).isEmpty(),
                r.failures().toString());
        assertEquals(List.of(6), of(r, ChainFailure.Kind.PREV_MISMATCH).stream().map(ChainFailure::line).toList());
    }

    @Test
    void anEntryMissingAFieldStillHasItsSeqAndPrevChecked() throws Exception {
        List<byte[]> c = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        c.set(4, without(c.get(4), "ts"));
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertEquals(List.of(ChainFailure.Kind.MISSING_FIELD, ChainFailure.Kind.PREV_MISMATCH), kinds(r), r.failures().toString());
        assertEquals(6, of(r, ChainFailure.Kind.PREV_MISMATCH).get(0).line());

        // its own seq is read and checked: an entry with a bad field that also skips ahead is the gap itself
        List<byte[]> skipped = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        skipped.set(4, without(skipped.get(4), "kind"));
        skipped.remove(5);
        ChainVerifier.Result s = verifier.verify("acme", skipped, EntryHash.GENESIS);
        assertEquals(List.of(6), of(s, ChainFailure.Kind.SEQ_GAP).stream().map(ChainFailure::line).toList(), s.failures().toString());

        // and its own prev: a bad-field entry spliced in from elsewhere does not chain
        List<byte[]> spliced = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        spliced.set(4, without(ChainVerifierTest.chain("acme", 10).get(5), "ts"));
        ObjectNode e = (ObjectNode) M.readTree(spliced.get(4));
        e.put("seq", 4);
        spliced.set(4, Jcs.canonicalize(e));
        ChainVerifier.Result p = verifier.verify("acme", spliced, EntryHash.GENESIS);
        assertEquals(List.of(5, 6), of(p, ChainFailure.Kind.PREV_MISMATCH).stream().map(ChainFailure::line).toList(),
                p.failures().toString());
    }

    @Test
    void anEntryWithoutAReadableSeqStandsForOnePosition() throws Exception {
        List<byte[]> c = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        c.set(4, without(c.get(4), "seq"));
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertTrue(of(r, ChainFailure.Kind.SEQ_GAP).isEmpty(), r.failures().toString());
        assertEquals(List.of(ChainFailure.Kind.MISSING_FIELD, ChainFailure.Kind.PREV_MISMATCH), kinds(r), r.failures().toString());
    }

    @Test
    void aNonCanonicalEntryKeepsItsSeq() {
        List<byte[]> c = new ArrayList<>(ChainVerifierTest.chain("acme", 10));
        c.set(4, bytes(new String(c.get(4), StandardCharsets.UTF_8).replace(",", ", ")));
        ChainVerifier.Result r = verifier.verify("acme", c, EntryHash.GENESIS);
        assertEquals(List.of(ChainFailure.Kind.NOT_CANONICAL, ChainFailure.Kind.PREV_MISMATCH), kinds(r), r.failures().toString());
    }
}
