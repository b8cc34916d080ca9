package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.ledger.BundleKit;

class LedgerVerifyCommandTest {
    private static final NoteSigner KEY = BundleKit.ledgerSigner();

    @TempDir
    Path dir;
    Path bundle;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void bundle() throws IOException {
        Path data = dir.resolve("data");
        BundleKit.ledger(data, 30, 10, KEY);
        bundle = BundleKit.export(data, 0, 29, KEY, dir.resolve("b.zip"));
    }

    private int run(String... args) {
        return new LedgerVerifyCommand(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(args);
    }

    private JsonNode report() throws IOException {
        return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aCleanBundleExitsZeroWithAValidReport() throws IOException {
        assertEquals(0, run("ledger", "verify", bundle.toString(), "--trust-key", BundleKit.trustKey(KEY)), err.toString());
        assertTrue(report().get("valid").asBoolean());
        assertEquals(30, report().get("entries").asLong());
    }

    @Test
    void aTamperedBundleExitsOneWithTheFailures() throws IOException {
        Path bad = BundleKit.rewrite(bundle, dir.resolve("bad.zip"), BundleKit.entries(lines -> lines.remove(3)), KEY);
        assertEquals(1, run("ledger", "verify", bad.toString(), "--trust-key", BundleKit.trustKey(KEY)));
        JsonNode r = report();
        assertFalse(r.get("valid").asBoolean());
        assertEquals("seq_gap", r.get("failures").get(0).get("check").asText());
    }

    // ---- issue 15, ledger-checks: --previous OLD (exit 0 linked, 1 not, 2 unreadable) ----
    @Test
    void anExportThatExtendsThePreviousOneExitsZero() throws IOException {
        Path old = BundleKit.export(dir.resolve("data"), 0, 19, KEY, dir.resolve("old.zip"));
        assertEquals(0, run("ledger", "verify", bundle.toString(), "--previous", old.toString(), "--trust-key",
                BundleKit.trustKey(KEY)), err.toString());
        assertTrue(report().get("valid").asBoolean());
    }

    @Test
    void anExportThatLeavesAGapAfterThePreviousOneExitsOneNamingIt() throws IOException {
        Path old = BundleKit.export(dir.resolve("data"), 0, 9, KEY, dir.resolve("old.zip"));
        Path later = BundleKit.export(dir.resolve("data"), 20, 29, KEY, dir.resolve("later.zip"));
        assertEquals(1, run("ledger", "verify", later.toString(), "--trust-key", BundleKit.trustKey(KEY), "--previous", old.toString()));
        assertEquals("previous_gap", report().get("failures").get(0).get("check").asText());
    }

    @Test
    void anUnreadablePreviousExportIsExitTwoNamingIt() {
        assertEquals(2, run("ledger", "verify", bundle.toString(), "--previous", dir.resolve("gone.zip").toString(),
                "--trust-key", BundleKit.trustKey(KEY)));
        assertTrue(err.toString().contains("gone.zip") && err.toString().contains("previous"), err.toString());
        assertEquals("", out.toString());
        assertEquals(2, run("ledger", "verify", bundle.toString(), "--trust-key", BundleKit.trustKey(KEY), "--previous"));
    }
    // ---- end of issue 15, ledger-checks ----

    @Test
    void aBundleSignedByAnotherKeyExitsOne() throws IOException {
        NoteSigner other = BundleKit.signer("cloakgate", 9);
        assertEquals(1, run("ledger", "verify", bundle.toString(), "--trust-key", BundleKit.trustKey(other)));
        assertEquals("untrusted_key", report().get("failures").get(0).get("check").asText());
    }

    @Test
    void aMissingFileIsExitTwoWithAMessage() {
        assertEquals(2, run("ledger", "verify", dir.resolve("nope.zip").toString(), "--trust-key", BundleKit.trustKey(KEY)));
        assertTrue(err.toString().contains("nope.zip"), err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void aBadTrustKeyIsExitTwoSayingTheForm() {
        assertEquals(2, run("ledger", "verify", bundle.toString(), "--trust-key", "abc=def"));
        assertTrue(err.toString().contains("KEYID=HEX"), err.toString());
        assertEquals(2, run("ledger", "verify", bundle.toString()));
        assertEquals(2, run("ledger", "verify", "--trust-key", BundleKit.trustKey(KEY)));
        assertEquals(2, run("ledger", "verify", bundle.toString(), "--trust-key"));
        assertEquals("", out.toString());
    }
}
