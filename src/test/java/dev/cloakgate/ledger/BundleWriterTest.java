package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.SignedNote;

class BundleWriterTest {
    private static final NoteSigner KEY = BundleKit.ledgerSigner();

    @TempDir
    Path dir;

    @Test
    void theBundleHoldsTheExactEntriesAndASignedManifestOfEveryPart() throws IOException {
        Path data = dir.resolve("data");
        BundleKit.ledger(data, 25, 10, KEY);
        Path bundle = BundleKit.export(data, 5, 24, KEY, dir.resolve("b.zip"));
        LinkedHashMap<String, byte[]> parts = BundleKit.parts(bundle);
        try (LedgerStore store = LedgerStore.openReadOnly(data, BundleKit.TENANT)) {
            assertEquals(new String(BundleKit.jsonl(store.read(5, 24)), StandardCharsets.UTF_8),
                    new String(parts.get("entries.jsonl"), StandardCharsets.UTF_8));
        }
        NoteVerification v = SignedNote.open(parts.get("manifest.note"), List.of(KEY.verifier()));
        BundleManifest m = BundleManifest.parse(((NoteVerification.Verified) v).text());
        assertEquals("cloakgate-ledger-export/v1", m.format());
        assertEquals("cloakgate/ledger/acme", m.origin());
        assertEquals(5, m.fromSeq());
        assertEquals(24, m.toSeq());
        assertEquals("2026-03-01T12:00:00Z", m.created());
        List<String> names = new ArrayList<>(parts.keySet());
        assertEquals(names.subList(0, names.size() - 1), m.parts().stream().map(BundleManifest.Part::name).toList());
        for (BundleManifest.Part p : m.parts()) {
            assertEquals(parts.get(p.name()).length, p.bytes());
            assertEquals(BundleKit.sha256(parts.get(p.name())), p.sha256());
        }
        // anchor 0 does not exist below 5; stored 10 and 20; a fresh 25 for the last entry
        assertEquals(List.of("entries.jsonl", "checkpoints/00000000000000000010.note", "checkpoints/00000000000000000020.note",
                "checkpoints/00000000000000000025.note", "proofs.json", "manifest.note"), names);
        BundleProofs proofs = BundleProofs.parse(parts.get("proofs.json"));
        assertEquals(5, proofs.prefixSize());
        assertEquals(2, proofs.prefixHashes().size()); // 5 = 4 + 1
        assertEquals(List.of(10L, 20L), proofs.consistency().stream().map(BundleProofs.Consistency::from).toList());
    }

    @Test
    void aRangeOutsideTheLedgerIsRefusedWithTheValidRange() throws IOException {
        Path data = dir.resolve("data");
        BundleKit.ledger(data, 20, 10, KEY);
        try (LedgerStore store = LedgerStore.openReadOnly(data, BundleKit.TENANT)) {
            BundleWriter w = new BundleWriter();
            for (long[] r : new long[][] {{-1, 5}, {6, 5}, {0, 20}}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> w.write(store, r[0], r[1], new LogKeys(LogIdentity.legacyOrigin(BundleKit.TENANT), KEY, KEY), BundleKit.CLOCK, new ByteArrayOutputStream()));
                assertTrue(e.getMessage().contains("0 <= from <= to <= 19"), e.getMessage());
            }
        }
    }

    @Test
    void anExportRunsOnAReadOnlyStoreBesideTheWriter() throws IOException {
        Path data = dir.resolve("data");
        BundleKit.ledger(data, 30, 10, KEY);
        try (LedgerStore writer = LedgerStore.open(data, BundleKit.TENANT)) {
            writer.append(List.of(BundleKit.body(30))); // not checkpointed: the export signs one for it
            Path bundle = BundleKit.export(data, 0, 30, KEY, dir.resolve("b.zip"));
            VerifyReport r = new BundleVerifier(BundleKit.trusted(KEY)).verify(bundle);
            assertTrue(r.valid(), r.toJson());
            assertEquals(31, r.entries());
        }
    }

    @Test
    void aHundredThousandEntryBundleRoundTrips() throws IOException {
        Path data = dir.resolve("data");
        BundleKit.ledger(data, 100_000, 10_000, KEY);
        long t0 = System.nanoTime();
        Path bundle = BundleKit.export(data, 0, 99_999, KEY, dir.resolve("big.zip"));
        long t1 = System.nanoTime();
        VerifyReport r = new BundleVerifier(BundleKit.trusted(KEY)).verify(bundle);
        long t2 = System.nanoTime();
        assertTrue(r.valid(), r.toJson());
        assertEquals(100_000, r.entries());
        Path range = BundleKit.export(data, 45_678, 99_998, KEY, dir.resolve("range.zip"));
        VerifyReport rr = new BundleVerifier(BundleKit.trusted(KEY)).verify(range);
        assertTrue(rr.valid(), rr.toJson());
        System.out.printf("bundle of 100,000 entries: export %d ms, verify %d ms%n", (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
    }
}
