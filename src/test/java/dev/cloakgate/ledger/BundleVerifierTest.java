package dev.cloakgate.ledger;

import static dev.cloakgate.ledger.BundleKit.entries;
import static dev.cloakgate.ledger.BundleKit.export;
import static dev.cloakgate.ledger.BundleKit.rewrite;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.SignedNote;

class BundleVerifierTest {
    private static final NoteSigner KEY = BundleKit.ledgerSigner();
    private static final NoteSigner OTHER = BundleKit.signer("cloakgate", 9);

    @TempDir
    Path dir;
    Path data;

    @BeforeEach
    void ledger() {
        data = dir.resolve("data");
        BundleKit.ledger(data, 50, 10, KEY); // checkpoints at 10, 20, 30, 40, 50
    }

    private VerifyReport verify(Path bundle) throws IOException {
        return new BundleVerifier(BundleKit.trusted(KEY)).verify(bundle);
    }

    private Path full() throws IOException {
        return export(data, 0, 49, KEY, dir.resolve("full.zip"));
    }

    /** Invalid, the check among the failures, and no failure detail quoting entry content. */
    private static VerifyReport assertFails(VerifyReport r, String... checks) {
        assertFalse(r.valid(), r.toJson());
        for (String check : checks) {
            assertTrue(r.checks().contains(check), () -> check + " missing from " + r.toJson());
        }
        for (VerifyReport.Failure f : r.failures()) {
            assertFalse(f.detail().contains("search") || f.detail().contains("caf") || f.detail().contains("tool"), f.toString());
        }
        return r;
    }

    private static VerifyReport.Failure first(VerifyReport r, String check) {
        return r.failures().stream().filter(f -> f.check().equals(check)).findFirst().orElseThrow();
    }

    @Test
    void aCleanFullExportVerifies() throws IOException {
        VerifyReport r = verify(full());
        assertTrue(r.valid(), r.toJson());
        assertEquals("acme", r.tenant());
        assertEquals(0L, r.fromSeq());
        assertEquals(49L, r.toSeq());
        assertEquals(50, r.entries());
        assertEquals(5, r.checkpoints());
        assertEquals(List.of(KEY.keyId().hex()), r.trustedKeys());
    }

    @Test
    void aCleanRangeExportVerifiesWithItsAnchorAndANewCheckpointForItsLastEntry() throws IOException {
        Path bundle = export(data, 15, 34, KEY, dir.resolve("range.zip"));
        assertEquals(List.of("entries.jsonl", "checkpoints/00000000000000000010.note", "checkpoints/00000000000000000020.note",
                "checkpoints/00000000000000000030.note", "checkpoints/00000000000000000035.note", "proofs.json", "manifest.note"),
                new ArrayList<>(BundleKit.parts(bundle).keySet()));
        VerifyReport r = verify(bundle);
        assertTrue(r.valid(), r.toJson());
        assertEquals(20, r.entries());
        assertEquals(4, r.checkpoints());
    }

    @Test
    void aRangeStartingAtACheckpointChecksThePrefixAgainstTheAnchorItself() throws IOException {
        Path bundle = export(data, 20, 29, KEY, dir.resolve("range.zip"));
        assertTrue(verify(bundle).valid(), verify(bundle).toJson());
        // a wrong prefix shows as the anchor's root, not only as the later roots
        Path bad = rewrite(bundle, dir.resolve("bad.zip"), parts -> {
            BundleProofs p = BundleProofs.parse(parts.get("proofs.json"));
            List<byte[]> prefix = new ArrayList<>(p.prefixHashes());
            prefix.set(0, new byte[32]);
            parts.put("proofs.json", new BundleProofs(p.prefixSize(), prefix, p.consistency()).json());
        }, KEY);
        VerifyReport r = assertFails(verify(bad), "checkpoint_root_mismatch");
        assertEquals(20L, first(r, "checkpoint_root_mismatch").size());
    }

    @Test
    void aFlippedByteInAnEntryIsCaughtByTheChainAndTheRootsEvenWithTheManifestResigned() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> {
            String l = new String(lines.get(12), StandardCharsets.UTF_8).replace("search", "searcH");
            lines.set(12, l.getBytes(StandardCharsets.UTF_8));
        }), KEY);
        VerifyReport r = assertFails(verify(bad), "prev_mismatch", "checkpoint_root_mismatch", "uncovered_entries");
        assertFalse(r.checks().contains("manifest_digest_mismatch"), r.toJson());
        assertEquals(14L, first(r, "prev_mismatch").line());
        assertEquals(13L, first(r, "prev_mismatch").seq());
        assertEquals(20L, first(r, "checkpoint_root_mismatch").size());
    }

    @Test
    void aDeletedEntryIsAGap() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> lines.remove(24)), KEY);
        VerifyReport r = assertFails(verify(bad), "seq_gap", "prev_mismatch", "range_mismatch");
        assertEquals(25L, first(r, "seq_gap").seq());
    }

    @Test
    void swappedEntriesAreAReorder() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> Collections.swap(lines, 5, 6)), KEY);
        assertFails(verify(bad), "seq_reorder", "prev_mismatch", "checkpoint_root_mismatch");
    }

    @Test
    void aTruncatedTailWithAFixedManifestIsNoLongerCovered() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> lines.subList(45, 50).clear()), KEY,
                m -> new BundleManifest(m.format(), m.tenant(), m.origin(), m.fromSeq(), 44, m.created(), m.parts()));
        VerifyReport r = assertFails(verify(bad), "uncovered_entries", "checkpoint_out_of_range");
        assertEquals(45L, first(r, "uncovered_entries").size());
        assertEquals(50L, first(r, "checkpoint_out_of_range").size());
    }

    @Test
    void aTruncatedTailUnderTheOldManifestRangeIsARangeMismatch() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> lines.subList(45, 50).clear()), KEY);
        assertFails(verify(bad), "range_mismatch", "checkpoint_unverifiable", "uncovered_entries");
    }

    @Test
    void aReplacedCheckpointSignedByTheTrustedKeyFailsItsRootAndItsConsistencyProofs() throws IOException {
        byte[] root = new byte[32];
        root[0] = 1;
        byte[] forged = BundleKit.checkpointNote(20, root, KEY);
        Path bad = rewrite(full(), dir.resolve("bad.zip"), parts -> parts.put(BundleLayout.checkpointPart(20), forged), KEY);
        VerifyReport r = assertFails(verify(bad), "checkpoint_root_mismatch", "consistency_proof_failed");
        assertEquals(20L, first(r, "checkpoint_root_mismatch").size());
    }

    @Test
    void aReplacedAnchorFailsTheConsistencyProofThatLinksItToTheRange() throws IOException {
        Path range = export(data, 15, 34, KEY, dir.resolve("range.zip"));
        byte[] forged = BundleKit.checkpointNote(10, new byte[32], KEY);
        Path bad = rewrite(range, dir.resolve("bad.zip"), parts -> parts.put(BundleLayout.checkpointPart(10), forged), KEY);
        VerifyReport r = assertFails(verify(bad), "consistency_proof_failed");
        assertEquals(List.of("consistency_proof_failed"), r.checks(), r.toJson());
        assertEquals(20L, first(r, "consistency_proof_failed").size());
    }

    @Test
    void aManifestSignedByAnUntrustedKeyIsReportedAsSuch() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), parts -> { }, OTHER);
        VerifyReport r = assertFails(verify(bad), "untrusted_key");
        assertEquals(List.of("untrusted_key"), r.checks(), r.toJson());
        assertEquals("manifest.note", first(r, "untrusted_key").part());
        assertTrue(first(r, "untrusted_key").detail().contains(OTHER.keyId().hex()));
    }

    @Test
    void aCheckpointSignedByAnUntrustedKeyIsReportedAsSuch() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), parts -> {
            String note = new String(parts.get(BundleLayout.checkpointPart(30)), StandardCharsets.UTF_8);
            String text = note.substring(0, note.lastIndexOf("\n\n") + 1);
            parts.put(BundleLayout.checkpointPart(30), SignedNote.sign(text, List.of(OTHER)).getBytes(StandardCharsets.UTF_8));
        }, KEY);
        VerifyReport r = assertFails(verify(bad), "untrusted_key");
        assertEquals(BundleLayout.checkpointPart(30), first(r, "untrusted_key").part());
    }

    @Test
    void aManifestChangedUnderATrustedSignatureIsABadSignatureNotAnUnknownKey() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), parts -> { }, null);
        LinkedHashMap<String, byte[]> parts = BundleKit.parts(bad);
        String note = new String(parts.get("manifest.note"), StandardCharsets.UTF_8);
        parts.put("manifest.note", note.replace("2026-03-01", "2026-03-02").getBytes(StandardCharsets.UTF_8));
        VerifyReport r = assertFails(verify(BundleKit.writeZip(dir.resolve("bad2.zip"), parts)), "manifest_signature_invalid");
        assertFalse(r.checks().contains("untrusted_key"), r.toJson());
    }

    @Test
    void theEntriesOfOneRangeWithTheCheckpointsOfAnotherAreASplice() throws IOException {
        Path a = export(data, 10, 29, KEY, dir.resolve("a.zip"));
        Path b = export(data, 30, 49, KEY, dir.resolve("b.zip"));
        byte[] otherEntries = BundleKit.parts(b).get("entries.jsonl");
        Path bad = rewrite(a, dir.resolve("bad.zip"), parts -> parts.put("entries.jsonl", otherEntries), KEY);
        assertFails(verify(bad), "range_mismatch", "checkpoint_root_mismatch", "uncovered_entries");
    }

    @Test
    void twoRangesConcatenatedAreAGapInTheChain() throws IOException {
        Path a = export(data, 0, 9, KEY, dir.resolve("a.zip"));
        Path b = export(data, 20, 29, KEY, dir.resolve("b.zip"));
        byte[] more = BundleKit.parts(b).get("entries.jsonl");
        Path bad = rewrite(a, dir.resolve("bad.zip"), parts -> {
            byte[] first = parts.get("entries.jsonl");
            byte[] both = new byte[first.length + more.length];
            System.arraycopy(first, 0, both, 0, first.length);
            System.arraycopy(more, 0, both, first.length, more.length);
            parts.put("entries.jsonl", both);
        }, KEY, m -> new BundleManifest(m.format(), m.tenant(), m.origin(), 0, 29, m.created(), m.parts()));
        VerifyReport r = assertFails(verify(bad), "seq_gap", "prev_mismatch", "range_mismatch");
        assertEquals(11L, first(r, "seq_gap").line());
    }

    @Test
    void aPartChangedWithoutResigningIsADigestMismatch() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), parts -> {
            BundleProofs p = BundleProofs.parse(parts.get("proofs.json"));
            parts.put("proofs.json", new BundleProofs(p.prefixSize(), p.prefixHashes(), p.consistency().subList(0, 3)).json());
        }, null);
        VerifyReport r = assertFails(verify(bad), "manifest_digest_mismatch", "consistency_proof_missing");
        assertEquals("proofs.json", first(r, "manifest_digest_mismatch").part());
    }

    @Test
    void entriesWithADuplicateKeyOrANumberOutOfRangeAreMalformedByKind() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> {
            String l = new String(lines.get(3), StandardCharsets.UTF_8);
            lines.set(3, l.replace("\"action\":", "\"action\":\"x\",\"action\":").getBytes(StandardCharsets.UTF_8));
            String m = new String(lines.get(7), StandardCharsets.UTF_8);
            lines.set(7, m.replace("\"i\":7", "\"i\":1e400").getBytes(StandardCharsets.UTF_8));
        }), KEY);
        VerifyReport r = assertFails(verify(bad), "entry_malformed");
        List<VerifyReport.Failure> malformed = r.failures().stream().filter(f -> f.check().equals("entry_malformed")).toList();
        assertEquals(2, malformed.size(), r.toJson());
        assertEquals(4L, malformed.get(0).line());
        assertTrue(malformed.get(0).detail().startsWith("duplicate_key"), malformed.get(0).detail());
        assertEquals(8L, malformed.get(1).line());
        assertTrue(malformed.get(1).detail().startsWith("number_out_of_range"), malformed.get(1).detail());
    }

    @Test
    void nonCanonicalBytesAreReported() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> {
            String l = new String(lines.get(30), StandardCharsets.UTF_8);
            lines.set(30, ("{ " + l.substring(1)).getBytes(StandardCharsets.UTF_8));
        }), KEY);
        VerifyReport r = assertFails(verify(bad), "entry_not_canonical");
        assertEquals(30L, first(r, "entry_not_canonical").seq());
    }

    @Test
    void aTamperedConsistencyProofFails() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), parts -> {
            BundleProofs p = BundleProofs.parse(parts.get("proofs.json"));
            List<BundleProofs.Consistency> c = new ArrayList<>(p.consistency());
            List<byte[]> proof = new ArrayList<>(c.get(1).proof());
            byte[] h = proof.get(0).clone();
            h[5] ^= 0x40;
            proof.set(0, h);
            c.set(1, new BundleProofs.Consistency(c.get(1).from(), c.get(1).to(), proof));
            parts.put("proofs.json", new BundleProofs(p.prefixSize(), p.prefixHashes(), c).json());
        }, KEY);
        VerifyReport r = assertFails(verify(bad), "consistency_proof_failed");
        assertEquals(List.of("consistency_proof_failed"), r.checks(), r.toJson());
        assertEquals(30L, first(r, "consistency_proof_failed").size());
    }

    @Test
    void severalFailuresAreReportedTogether() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), parts -> {
            entries(lines -> lines.remove(40)).accept(parts);
            String note = new String(parts.get(BundleLayout.checkpointPart(10)), StandardCharsets.UTF_8);
            parts.put(BundleLayout.checkpointPart(10), SignedNote.sign(note.substring(0, note.lastIndexOf("\n\n") + 1),
                    List.of(OTHER)).getBytes(StandardCharsets.UTF_8));
        }, null);
        assertFails(verify(bad), "manifest_digest_mismatch", "untrusted_key", "seq_gap", "prev_mismatch", "range_mismatch");
    }

    @Test
    void notAZipIsUnreadable() throws IOException {
        Path junk = Files.writeString(dir.resolve("junk.zip"), "not a zip at all");
        VerifyReport r = assertFails(verify(junk), "unreadable_bundle");
        assertEquals(1, r.failures().size());
    }

    @Test
    void missingAndUnknownPartsAreUnreadable() throws IOException {
        LinkedHashMap<String, byte[]> parts = BundleKit.parts(full());
        parts.remove("proofs.json");
        parts.put("extra.txt", new byte[] {1});
        VerifyReport r = assertFails(verify(BundleKit.writeZip(dir.resolve("bad.zip"), parts)), "unreadable_bundle");
        assertTrue(r.failures().stream().anyMatch(f -> f.part().equals("proofs.json")), r.toJson());
        assertTrue(r.failures().stream().anyMatch(f -> f.part().equals("extra.txt")), r.toJson());
    }

    @Test
    void aDuplicatePartIsUnreadable() throws IOException {
        LinkedHashMap<String, byte[]> parts = BundleKit.parts(full());
        parts.put("entries.jsonX", parts.get("entries.jsonl"));
        byte[] zip = Files.readAllBytes(BundleKit.writeZip(dir.resolve("dup.zip"), parts));
        // the same length name, patched in both the local header and the central directory
        String latin = new String(zip, StandardCharsets.ISO_8859_1).replace("entries.jsonX", "entries.jsonl");
        Path dup = Files.write(dir.resolve("dup2.zip"), latin.getBytes(StandardCharsets.ISO_8859_1));
        VerifyReport r = assertFails(verify(dup), "unreadable_bundle");
        assertEquals("entries.jsonl", first(r, "unreadable_bundle").part());
    }

    @Test
    void theReportRendersAsJson() throws IOException {
        Path bad = rewrite(full(), dir.resolve("bad.zip"), entries(lines -> lines.remove(24)), KEY);
        String json = verify(bad).toJson();
        var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        assertFalse(node.get("valid").asBoolean());
        assertEquals("acme", node.get("tenant").asText());
        assertEquals(49, node.get("to_seq").asLong());
        assertEquals(49, node.get("entries").asLong());
        assertEquals(KEY.keyId().hex(), node.get("trusted_keys").get(0).asText());
        assertEquals("seq_gap", node.get("failures").get(0).get("check").asText());
        assertEquals("entries.jsonl", node.get("failures").get(0).get("part").asText());
        assertEquals(25, node.get("failures").get(0).get("line").asLong());
    }
}
