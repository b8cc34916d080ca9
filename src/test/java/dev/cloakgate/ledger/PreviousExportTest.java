package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.SignedNote;

/**
 * Issue 15, {@code ledger verify NEW --previous OLD}: a genuine chain of incremental exports links; a ledger forked
 * after the previous export's prefix (both branches signed by the one key), a tampered previous export, a gap, a
 * shorter new export and another tenant's export do not, each with its named check.
 */
class PreviousExportTest {
    private static final NoteSigner KEY = BundleKit.ledgerSigner();

    @TempDir
    Path dir;

    /** Appends {@code n} entries to the tenant's ledger (as the gateway does, one commit each), a checkpoint every 10. */
    private static void append(Path data, String tenant, long n, String branch) {
        try (LedgerStore store = LedgerStore.open(data, tenant, BundleKit.CLOCK)) {
            MerkleTree tree = new MerkleTree();
            long size = store.size();
            if (size > 0) {
                store.hashes(0, size - 1).forEach(tree::append);
            }
            for (long i = size; i < size + n; i++) {
                ObjectNode body = BundleKit.body(i);
                if (branch != null) {
                    body.put("branch", branch);
                }
                store.append(List.of(body)).forEach(a -> tree.append(a.hash()));
                if (tree.size() % 10 == 0) {
                    String text = new Checkpoint(LogIdentity.legacyOrigin(tenant), tree.size(), tree.root()).text();
                    store.putCheckpoint(tree.size(), SignedNote.sign(text, List.of(KEY)).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }

    private Path export(Path data, String tenant, long from, long to, String name) throws IOException {
        Path out = dir.resolve(name + ".zip");
        try (LedgerStore store = LedgerStore.openReadOnly(data, tenant); OutputStream os = Files.newOutputStream(out)) {
            // the single-key scheme's log (one key for checkpoints and manifest), as BundleKit exports
            new BundleWriter().write(store, from, to, new LogKeys(LogIdentity.legacyOrigin(tenant), KEY, KEY), BundleKit.CLOCK, os);
        }
        return out;
    }

    private static VerifyReport verify(Path current, Path previous) throws IOException {
        return new BundleVerifier(BundleKit.trusted(KEY)).verify(current, previous);
    }

    private static VerifyReport.Failure first(VerifyReport r, String check) {
        return r.failures().stream().filter(f -> f.check().equals(check)).findFirst()
                .orElseThrow(() -> new AssertionError(check + " missing from " + r.toJson()));
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().endsWith(".lock")) {
                    Files.copy(p, target);
                }
            }
        }
    }

    @Test
    void aGenuineChainOfIncrementalExportsLinks() throws IOException {
        Path data = dir.resolve("data");
        append(data, "acme", 25, null);
        Path first = export(data, "acme", 0, 24, "first"); // its last checkpoint, at 25, is signed at export time
        append(data, "acme", 25, null);
        Path second = export(data, "acme", 25, 49, "second"); // anchored at the stored 20, prefix frontier at 25
        VerifyReport r = verify(second, first);
        assertTrue(r.valid(), r.toJson());
        append(data, "acme", 7, null);
        Path third = export(data, "acme", 50, 56, "third");
        assertTrue(verify(third, second).valid(), verify(third, second).toJson());
        // overlapping ranges agree entry for entry, and a full re-export extends every earlier one
        assertTrue(verify(export(data, "acme", 15, 56, "overlap"), second).valid());
        assertTrue(verify(export(data, "acme", 0, 56, "full"), first).valid());
        // the same range again extends itself by nothing
        assertTrue(verify(second, second).valid());
    }

    @Test
    void aForkedLedgerSignedByTheSameKeyFails() throws IOException {
        Path a = dir.resolve("a");
        append(a, "acme", 25, null);
        Path b = dir.resolve("b");
        copy(a, b); // two ledgers sharing entries 0..24, then each its own
        append(a, "acme", 10, "a");
        append(b, "acme", 25, "b");
        Path old = export(a, "acme", 0, 34, "old");
        assertTrue(new BundleVerifier(BundleKit.trusted(KEY)).verify(old).valid());

        Path abutting = export(b, "acme", 35, 49, "abutting");
        assertTrue(new BundleVerifier(BundleKit.trusted(KEY)).verify(abutting).valid(), "each branch verifies alone");
        VerifyReport r = verify(abutting, old);
        assertFalse(r.valid());
        assertEquals(30L, first(r, "previous_fork").size(), "both sign a tree of size 30, with different roots");
        assertEquals(35L, first(r, "previous_not_prefix").size());
        assertEquals(35L, first(r, "previous_prev_mismatch").seq());

        Path overlapping = export(b, "acme", 20, 49, "overlapping");
        VerifyReport o = verify(overlapping, old);
        assertEquals(25L, first(o, "previous_entry_mismatch").seq());
        assertTrue(first(o, "previous_entry_mismatch").detail().startsWith("10 of the entries"), o.toJson());
        assertEquals(35L, first(o, "previous_not_prefix").size());
        assertTrue(o.checks().contains("previous_fork"), o.toJson());
    }

    @Test
    void aForkAfterThePreviousExportIsNoFork() throws IOException {
        // the branch that the auditor's previous export does not reach is the history they have not seen yet
        Path a = dir.resolve("a");
        append(a, "acme", 25, null);
        Path old = export(a, "acme", 0, 24, "old");
        Path b = dir.resolve("b");
        copy(a, b);
        append(b, "acme", 25, "b");
        assertTrue(verify(export(b, "acme", 25, 49, "new"), old).valid());
    }

    @Test
    void aTamperedPreviousExportFails() throws IOException {
        Path data = dir.resolve("data");
        append(data, "acme", 50, null);
        Path old = export(data, "acme", 0, 24, "old");
        Path tampered = BundleKit.rewrite(old, dir.resolve("tampered.zip"), BundleKit.entries(lines -> lines.set(12,
                new String(lines.get(12), StandardCharsets.UTF_8).replace("search", "searcH").getBytes(StandardCharsets.UTF_8))), KEY);
        VerifyReport r = verify(export(data, "acme", 25, 49, "new"), tampered);
        assertEquals(List.of("previous_invalid"), r.checks(), r.toJson());
        assertTrue(first(r, "previous_invalid").detail().contains("prev_mismatch"), r.toJson());

        Path junk = Files.writeString(dir.resolve("junk.zip"), "not a zip");
        assertEquals(List.of("previous_invalid"), verify(export(data, "acme", 25, 49, "new2"), junk).checks());
    }

    @Test
    void aGapAShorterExportAndAnotherLogAreNamed() throws IOException {
        Path data = dir.resolve("data");
        append(data, "acme", 50, null);
        VerifyReport gap = verify(export(data, "acme", 30, 49, "later"), export(data, "acme", 0, 19, "early"));
        assertEquals(List.of("previous_gap"), gap.checks(), gap.toJson());
        assertEquals(30L, first(gap, "previous_gap").seq());

        VerifyReport shorter = verify(export(data, "acme", 10, 29, "shorter"), export(data, "acme", 0, 39, "longer"));
        assertEquals(List.of("previous_not_extended"), shorter.checks(), shorter.toJson());

        Path beta = dir.resolve("beta");
        append(beta, "beta", 20, null);
        VerifyReport other = verify(export(data, "acme", 20, 49, "acme"), export(beta, "beta", 0, 19, "beta"));
        assertEquals(List.of("previous_log_mismatch"), other.checks(), other.toJson());
    }

    @Test
    void anInvalidNewExportIsReportedAsItselfOnly() throws IOException {
        Path data = dir.resolve("data");
        append(data, "acme", 50, null);
        Path old = export(data, "acme", 0, 24, "old");
        Path bad = BundleKit.rewrite(export(data, "acme", 25, 49, "new"), dir.resolve("bad.zip"),
                BundleKit.entries(lines -> lines.remove(3)), KEY);
        VerifyReport r = verify(bad, old);
        assertFalse(r.valid());
        assertTrue(r.checks().stream().noneMatch(c -> c.startsWith("previous_")), r.toJson());
    }
}
