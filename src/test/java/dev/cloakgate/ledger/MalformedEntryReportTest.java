package dev.cloakgate.ledger;

import static dev.cloakgate.ledger.BundleKit.entries;
import static dev.cloakgate.ledger.BundleKit.export;
import static dev.cloakgate.ledger.BundleKit.rewrite;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.crypto.NoteSigner;

/**
 * Issue 15: the report after a malformed entry names what is wrong and nothing that is not: no {@code seq_gap}
 * for the entry after it, and no {@code range_mismatch} when the malformed entry is the first or the last.
 */
class MalformedEntryReportTest {
    private static final NoteSigner KEY = BundleKit.ledgerSigner();

    @TempDir
    Path dir;

    // entries 50..99 of a 100-entry ledger with a checkpoint every 10
    private Path bundle() throws IOException {
        BundleKit.ledger(dir.resolve("data"), 100, 10, KEY);
        return export(dir.resolve("data"), 50, 99, KEY, dir.resolve("b.zip"));
    }

    private VerifyReport verifyWith(int line, String replacement) throws IOException {
        Path bad = rewrite(bundle(), dir.resolve("bad.zip"), entries(lines -> lines.set(line,
                replacement != null ? replacement.getBytes(StandardCharsets.UTF_8)
                        : Arrays.copyOf(lines.get(line), lines.get(line).length - 3))), KEY);
        VerifyReport r = new BundleVerifier(BundleKit.trusted(KEY)).verify(bad);
        assertFalse(r.valid());
        return r;
    }

    @Test
    void aTruncatedEntryInTheMiddleIsMalformedAndTheNextIsNoGap() throws IOException {
        VerifyReport r = verifyWith(25, null); // seq 75
        assertEquals(List.of("entry_malformed", "prev_mismatch", "checkpoint_root_mismatch", "uncovered_entries"), r.checks(),
                r.toJson());
        VerifyReport.Failure prev = r.failures().stream().filter(f -> f.check().equals("prev_mismatch")).findFirst().orElseThrow();
        assertEquals(76L, prev.seq());
    }

    @Test
    void aMalformedFirstOrLastEntryIsNoRangeMismatch() throws IOException {
        for (int line : new int[] { 0, 49 }) {
            VerifyReport r = verifyWith(line, "{\"seq\":1,\"seq\":1}");
            assertFalse(r.checks().contains("range_mismatch"), r.toJson());
            assertFalse(r.checks().contains("seq_gap"), r.toJson());
            assertEquals("entry_malformed", r.checks().get(0), r.toJson());
        }
    }
}
