package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.NoteVerifier;
import dev.cloakgate.crypto.SignedNote;

/**
 * Issue 15: {@code --trust-key} takes the signed-note ecosystem's verifier key form. Checked against the Go
 * {@code golang.org/x/mod/sumdb/note} package documentation's published example: its verifier key string, the note it
 * shows signed by that key, and a checkpoint signed with the example's private key, all read through the verifier's
 * own path (parse the string, select the keys for the note, open it).
 */
class TrustedKeysTest {
    /** The documentation's example verifier key and signed note, verbatim. */
    private static final String GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
    private static final String GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
    private static final String GO_TEXT = "If you think cryptography is the answer to your problem,\n"
            + "then you don't know what your problem is.\n";
    private static final String GO_NOTE = GO_TEXT + "\n"
            + "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

    private static NoteSigner goSigner() {
        String[] parts = GO_SKEY.split("\\+", 5);
        byte[] typed = Base64.getDecoder().decode(parts[4]);
        return new NoteSigner(parts[2], Ed25519SigningKey.fromSeed(Arrays.copyOfRange(typed, 1, typed.length)));
    }

    private static NoteVerification open(TrustedKeys trusted, byte[] note) {
        return SignedNote.open(note, trusted.verifiersFor(note));
    }

    @Test
    void thePublishedVerifierKeyVerifiesThePublishedNote() {
        TrustedKeys trusted = TrustedKeys.parse(List.of(GO_VKEY));
        assertEquals(List.of("c74f20a3"), trusted.ids());
        byte[] note = GO_NOTE.getBytes(StandardCharsets.UTF_8);
        var ok = assertInstanceOf(NoteVerification.Verified.class, open(trusted, note));
        assertEquals(GO_TEXT, ok.text());
        assertEquals(GO_VKEY, ok.signedBy().get(0).encoded());
        // one changed character of the text and the published signature fails
        byte[] altered = GO_NOTE.replace("answer", "Answer").getBytes(StandardCharsets.UTF_8);
        assertInstanceOf(NoteVerification.Rejected.class, open(trusted, altered));
    }

    @Test
    void aCheckpointSignedWithThePublishedKeyIsCheckedEndToEndUnderItsVerifierKey() {
        NoteSigner go = goSigner();
        assertEquals(GO_VKEY, go.verifier().encoded(), "the published private key is the published verifier key's");
        assertEquals(GO_NOTE, SignedNote.sign(GO_TEXT, List.of(go)), "and signs the published note byte for byte");
        byte[] root = new byte[32];
        Arrays.fill(root, (byte) 0x5a);
        // tlog-checkpoint: the key name is the origin, so the example's key signs the log "PeterNeumann"
        byte[] note = SignedNote.sign(new Checkpoint("PeterNeumann", 42, root).text(), List.of(go)).getBytes(StandardCharsets.UTF_8);
        TrustedKeys trusted = TrustedKeys.parse(List.of(GO_VKEY));
        List<NoteVerifier> forCheckpoint = KeyPurpose.forCheckpoint(trusted.verifiersFor(note), note);
        assertEquals(1, forCheckpoint.size(), "a checkpoint key named as the checkpoint's origin");
        var ok = assertInstanceOf(NoteVerification.Verified.class, SignedNote.open(note, forCheckpoint));
        Checkpoint cp = assertInstanceOf(Checkpoint.Parse.Ok.class, Checkpoint.parse(ok.text())).checkpoint();
        assertEquals(new Checkpoint("PeterNeumann", 42, root), cp);
        // the same key on a checkpoint of another origin is not that log's checkpoint key
        byte[] other = SignedNote.sign(new Checkpoint("example.com/log", 42, root).text(), List.of(go)).getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of(), KeyPurpose.forCheckpoint(trusted.verifiersFor(other), other));
    }

    @Test
    void aVerifierKeyWhoseBase64HoldsAPlusParses() {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 1);
        NoteVerifier v = LogKeys.derive(Ed25519SigningKey.fromSeed(seed), "gw.example/ledger/acme").checkpoint().verifier();
        String encoded = v.encoded();
        assertTrue(encoded.split("\\+").length > 3, "this key's base64 holds a '+': " + encoded);
        assertEquals(v, NoteVerifier.parse(encoded));
        assertEquals(List.of(v.keyId().hex()), TrustedKeys.parse(List.of(encoded)).ids());
    }

    @Test
    void bothFormsAreAcceptedAndAMalformedOneIsRefusedSayingWhatToGive() {
        NoteSigner go = goSigner();
        TrustedKeys both = TrustedKeys.parse(List.of(GO_VKEY, TrustedKeys.spec(go)));
        assertEquals(List.of("c74f20a3"), both.ids(), "one key, given twice");
        for (String bad : List.of("PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "c74f20a3=abcd", "nonsense")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TrustedKeys.parse(List.of(bad)));
            assertTrue(e.getMessage().contains("<name>+<key ID>+<base64 key>") && e.getMessage().contains("KEYID=HEX"),
                    e.getMessage());
        }
    }
}
