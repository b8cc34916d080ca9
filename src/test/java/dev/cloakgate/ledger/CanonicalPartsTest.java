package dev.cloakgate.ledger;

import static dev.cloakgate.ledger.BundleKit.export;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.SignedNote;

/**
 * Issue 15: the parts LEDGER.md gives one byte form are refused in any other, even when the holder of the trusted
 * key re-signs the bundle: a pretty-printed or reordered manifest, a pretty-printed proofs.json, duplicate keys
 * (named), CRLF line endings in entries.jsonl, and checkpoint texts whose size or root is not in its one spelling.
 */
class CanonicalPartsTest {
    private static final NoteSigner KEY = BundleKit.ledgerSigner();
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;
    Path bundle;

    @BeforeEach
    void bundle() throws IOException {
        Path data = dir.resolve("data");
        BundleKit.ledger(data, 30, 10, KEY);
        bundle = export(data, 5, 29, KEY, dir.resolve("b.zip"));
    }

    private VerifyReport verify(Path p) throws IOException {
        return new BundleVerifier(BundleKit.trusted(KEY)).verify(p);
    }

    /**
     * The bundle with {@code edit} applied to the parts, the manifest rebuilt over them and its text passed through
     * {@code manifestText} before the trusted key signs it: what the key holder can produce.
     */
    private Path resigned(java.util.function.Consumer<LinkedHashMap<String, byte[]>> edit, UnaryOperator<String> manifestText)
            throws IOException {
        LinkedHashMap<String, byte[]> parts = BundleKit.parts(bundle);
        String whole = new String(parts.remove(BundleLayout.MANIFEST), StandardCharsets.UTF_8);
        BundleManifest m = BundleManifest.parse(whole.substring(0, whole.lastIndexOf("\n\n") + 1));
        edit.accept(parts);
        List<BundleManifest.Part> listed = new ArrayList<>();
        for (Map.Entry<String, byte[]> p : parts.entrySet()) {
            listed.add(new BundleManifest.Part(p.getKey(), p.getValue().length, BundleKit.sha256(p.getValue())));
        }
        String text = new BundleManifest(m.format(), m.tenant(), m.origin(), m.fromSeq(), m.toSeq(), m.created(), listed).text();
        parts.put(BundleLayout.MANIFEST, SignedNote.sign(manifestText.apply(text), List.of(KEY)).getBytes(StandardCharsets.UTF_8));
        return BundleKit.writeZip(dir.resolve("resigned.zip"), parts);
    }

    private static String pretty(String json) {
        try {
            return M.writerWithDefaultPrettyPrinter().writeValueAsString(M.readTree(json));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertOnly(VerifyReport r, String check) {
        assertFalse(r.valid(), r.toJson());
        assertEquals(List.of(check), r.checks(), r.toJson());
    }

    @Test
    void theBundleAsWrittenIsInItsOneForm() throws IOException {
        assertTrue(verify(bundle).valid(), verify(bundle).toJson());
        // and the rebuild below changes nothing by itself
        assertTrue(verify(resigned(parts -> { }, t -> t)).valid());
    }

    @Test
    void aPrettyPrintedManifestResignedByTheKeyIsNotCanonical() throws IOException {
        VerifyReport r = verify(resigned(parts -> { }, t -> pretty(t) + "\n"));
        assertOnly(r, "manifest_not_canonical");
        assertEquals("manifest.note", r.failures().get(0).part());
    }

    @Test
    void aReorderedOrDoublyTerminatedManifestIsNotCanonical() throws IOException {
        // the same members, "tenant" moved to the front: a parser sees the same object
        UnaryOperator<String> reorder = t -> {
            int at = t.indexOf(",\"tenant\":");
            int end = t.indexOf(",", at + 1);
            String member = t.substring(at + 1, end);
            return "{" + member + "," + (t.substring(1, at) + t.substring(end)).replaceFirst("^,", "");
        };
        assertOnly(verify(resigned(parts -> { }, reorder)), "manifest_not_canonical");
        assertOnly(verify(resigned(parts -> { }, t -> t + "\n")), "manifest_not_canonical");
        assertOnly(verify(resigned(parts -> { }, t -> " " + t)), "manifest_not_canonical");
    }

    @Test
    void aManifestWithADuplicateKeyIsMalformedAndSaysWhy() throws IOException {
        VerifyReport r = verify(resigned(parts -> { }, t -> t.replace("{\"created\":", "{\"tenant\":\"other\",\"created\":")));
        assertOnly(r, "manifest_malformed");
        assertTrue(r.failures().get(0).detail().contains("duplicate_key"), r.toJson());
    }

    @Test
    void aMemberTheFormatDoesNotHaveIsMalformedEvenInCanonicalForm() throws IOException {
        // "a_note" sorts first: still the JCS form, but not a v1 manifest
        assertOnly(verify(resigned(parts -> { }, t -> t.replace("{\"created\":", "{\"a_note\":\"x\",\"created\":"))),
                "manifest_malformed");
        assertOnly(verify(resigned(parts -> { }, t -> t.replace("\"bytes\":", "\"a\":1,\"bytes\":"))), "manifest_malformed");
        VerifyReport p = verify(resigned(parts -> parts.put(BundleLayout.PROOFS, new String(parts.get(BundleLayout.PROOFS),
                StandardCharsets.UTF_8).replace("{\"consistency\":", "{\"a\":1,\"consistency\":").getBytes(StandardCharsets.UTF_8)), t -> t));
        assertTrue(p.checks().contains("proofs_malformed"), p.toJson());
    }

    @Test
    void aPrettyPrintedOrNewlineTerminatedProofsJsonIsNotCanonical() throws IOException {
        VerifyReport r = verify(resigned(parts -> parts.put(BundleLayout.PROOFS,
                pretty(new String(parts.get(BundleLayout.PROOFS), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)), t -> t));
        assertOnly(r, "proofs_not_canonical");
        assertEquals("proofs.json", r.failures().get(0).part());
        assertOnly(verify(resigned(parts -> parts.put(BundleLayout.PROOFS,
                (new String(parts.get(BundleLayout.PROOFS), StandardCharsets.UTF_8) + "\n").getBytes(StandardCharsets.UTF_8)), t -> t)),
                "proofs_not_canonical");
    }

    @Test
    void aProofsJsonWithADuplicateKeyIsMalformedAndSaysWhy() throws IOException {
        VerifyReport r = verify(resigned(parts -> parts.put(BundleLayout.PROOFS,
                new String(parts.get(BundleLayout.PROOFS), StandardCharsets.UTF_8).replace("{\"consistency\":",
                        "{\"consistency\":[],\"consistency\":").getBytes(StandardCharsets.UTF_8)), t -> t));
        // without proofs nothing past the entries recomputes: those follow, and are reported too
        assertTrue(r.checks().contains("proofs_malformed"), r.toJson());
        assertTrue(r.failures().stream().filter(f -> f.check().equals("proofs_malformed"))
                .allMatch(f -> f.detail().contains("duplicate_key")), r.toJson());
    }

    @Test
    void crlfLineEndingsInTheEntriesAreNotTheStoredBytes() throws IOException {
        VerifyReport r = verify(resigned(parts -> parts.put(BundleLayout.ENTRIES, new String(parts.get(BundleLayout.ENTRIES),
                StandardCharsets.UTF_8).replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8)), t -> t));
        assertFalse(r.valid());
        assertEquals(25, r.failures().stream().filter(f -> f.check().equals("entry_not_canonical")).count(), r.toJson());
        // and an entries part whose last line has no newline is malformed at that line
        VerifyReport cut = verify(resigned(parts -> {
            byte[] e = parts.get(BundleLayout.ENTRIES);
            parts.put(BundleLayout.ENTRIES, java.util.Arrays.copyOf(e, e.length - 1));
        }, t -> t));
        assertEquals(List.of("entry_malformed"), cut.checks(), cut.toJson());
        assertEquals(25L, cut.failures().get(0).line());
    }

    @Test
    void aCheckpointTextOutsideItsOneSpellingIsMalformedEvenWhenSigned() throws IOException {
        String part = BundleLayout.checkpointPart(20);
        for (UnaryOperator<String> respell : List.<UnaryOperator<String>>of(
                t -> t.replace("\n20\n", "\n020\n"),           // a leading zero
                t -> t.replace("=\n", "\n"),                  // unpadded base64
                t -> t.replace("\n20\n", "\n+20\n"))) {
            VerifyReport r = verify(resigned(parts -> {
                String note = new String(parts.get(part), StandardCharsets.UTF_8);
                String text = respell.apply(note.substring(0, note.lastIndexOf("\n\n") + 1));
                parts.put(part, SignedNote.sign(text, List.of(KEY)).getBytes(StandardCharsets.UTF_8));
            }, t -> t));
            assertTrue(r.checks().contains("checkpoint_malformed"), r.toJson());
        }
    }
}
