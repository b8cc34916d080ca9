package dev.cloakgate.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cloakgate.crypto.NoteVerification.Kind;

class SignedNoteTest {

    private static final String GO_TEXT = "If you think cryptography is the answer to your problem,\n"
            + "then you don't know what your problem is.\n";
    private static final String GO_NOTE = GO_TEXT + "\n"
            + "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

    private final NoteSigner peter = signer("PeterNeumann", "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz");
    private final NoteSigner log = new NoteSigner("cloakgate.example/ledger", Ed25519SigningKey.fromSeed(seed(1)));
    private final NoteSigner witness = new NoteSigner("witness.example/w1", Ed25519SigningKey.fromSeed(seed(2)));

    private static NoteSigner signer(String name, String typedSeedBase64) {
        byte[] typed = Base64.getDecoder().decode(typedSeedBase64);
        return new NoteSigner(name, Ed25519SigningKey.fromSeed(Arrays.copyOfRange(typed, 1, typed.length)));
    }

    private static byte[] seed(int fill) {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) fill);
        return seed;
    }

    private static NoteVerification open(String note, NoteVerifier... trusted) {
        return SignedNote.open(note.getBytes(StandardCharsets.UTF_8), List.of(trusted));
    }

    private static List<Kind> problems(NoteVerification outcome) {
        return assertInstanceOf(NoteVerification.Rejected.class, outcome).problems().stream()
                .map(NoteVerification.Problem::kind).toList();
    }

    /** Byte for byte the note the Go sumdb/note package documents for this key and text. */
    @Test
    void signsExactlyAsTheGoNotePackage() {
        assertEquals(GO_NOTE, SignedNote.sign(GO_TEXT, List.of(peter)));
        var verified = assertInstanceOf(NoteVerification.Verified.class, open(GO_NOTE, peter.verifier()));
        assertEquals(GO_TEXT, verified.text());
        assertEquals(List.of(peter.verifier()), verified.signedBy());
    }

    @Test
    void roundTripWithTextHoldingEmptyLinesAndUnicode() {
        String text = "line one\n\nline three — é 😀\n\n";
        String note = SignedNote.sign(text, List.of(log, witness));
        var verified = assertInstanceOf(NoteVerification.Verified.class, open(note, log.verifier()));
        assertEquals(text, verified.text());
        // the witness is not trusted here: its signature is skipped, and named
        assertEquals(List.of(new NoteVerification.SignatureLine(witness.name(), witness.keyId())), verified.ignored());
        var both = assertInstanceOf(NoteVerification.Verified.class, open(note, log.verifier(), witness.verifier()));
        assertEquals(2, both.signedBy().size());
    }

    @Test
    void claimedSignersNamesEveryLineOfAWellFormedNoteOnly() {
        String note = SignedNote.sign("origin\n1\n", List.of(log, witness));
        assertEquals(List.of(new NoteVerification.SignatureLine(log.name(), log.keyId()),
                new NoteVerification.SignatureLine(witness.name(), witness.keyId())),
                SignedNote.claimedSigners(note.getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of(), SignedNote.claimedSigners(note.replace("\u2014 ", "- ").getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of(), SignedNote.claimedSigners("origin\n1\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void tamperedTextIsABadSignature() {
        String note = SignedNote.sign("origin\n1\n", List.of(log));
        assertEquals(List.of(Kind.BAD_SIGNATURE), problems(open(note.replace("1\n\n", "2\n\n"), log.verifier())));
    }

    @Test
    void tamperedSignatureIsABadSignature() {
        String note = SignedNote.sign("origin\n1\n", List.of(log));
        String line = note.substring(note.indexOf('\u2014'));
        byte[] blob = Base64.getDecoder().decode(line.substring(line.lastIndexOf(' ') + 1).trim());
        blob[10] ^= 1;
        String tampered = note.substring(0, note.indexOf('\u2014')) + "\u2014 " + log.name() + " "
                + Base64.getEncoder().encodeToString(blob) + "\n";
        assertEquals(List.of(Kind.BAD_SIGNATURE), problems(open(tampered, log.verifier())));
    }

    @Test
    void oneFailingTrustedSignatureRefusesTheNoteEvenIfAnotherVerifies() {
        String good = SignedNote.sign("text\n", List.of(log));
        String forged = SignedNote.sign("other\n", List.of(witness));
        String mixed = good + forged.substring(forged.indexOf('\u2014'));
        assertEquals(List.of(Kind.BAD_SIGNATURE), problems(open(mixed, log.verifier(), witness.verifier())));
    }

    @Test
    void unknownKeysAloneAreNotEnough() {
        String note = SignedNote.sign("text\n", List.of(witness));
        assertEquals(List.of(Kind.UNKNOWN_KEY, Kind.NO_TRUSTED_SIGNATURE), problems(open(note, log.verifier())));
        // same name, other key: still unknown, not a bad signature
        NoteVerifier impostor = NoteVerifier.of(witness.name(), log.verifier().publicKey());
        assertEquals(List.of(Kind.UNKNOWN_KEY, Kind.NO_TRUSTED_SIGNATURE), problems(open(note, impostor)));
    }

    @Test
    void malformedNotesAreReportedAsSuch() {
        String sig = SignedNote.sign("text\n", List.of(log));
        String sigLine = sig.substring(sig.indexOf('\u2014'));
        for (String bad : new String[] {
            "text\n" + sigLine, // no blank line
            "text\n\n", // no signatures
            sig.substring(0, sig.length() - 1), // last line without newline
            "text\n\n- " + sigLine.substring(2), // hyphen instead of em dash
            "text\n\n" + sigLine.replace(" " + log.name() + " ", " " + log.name() + "  "), // two spaces
            "text\n\n\u2014 a+b AAAAAAAA\n", // '+' in the name
            "text\n\n\u2014 name AAAA\n", // signature too short for a key ID and a signature
            "text\n\n\u2014 name not*base64\n",
            "te\rxt\n" + sig.substring(sig.indexOf("\n\n")), // control character
        }) {
            assertEquals(Kind.MALFORMED, problems(open(bad, log.verifier())).get(0), bad);
        }
        assertEquals(List.of(Kind.MALFORMED), problems(SignedNote.open(new byte[] {'a', '\n', '\n', (byte) 0xff},
                List.of(log.verifier()))));
    }

    @Test
    void tooManySignaturesAreRefusedBeforeVerifying() {
        String one = SignedNote.sign("t\n", List.of(log));
        String line = one.substring(one.indexOf('\u2014'));
        String many = "t\n\n" + line.repeat(SignedNote.MAX_SIGNATURES + 1);
        assertEquals(List.of(Kind.TOO_MANY_SIGNATURES), problems(open(many, log.verifier())));
        var sixteen = open("t\n\n" + line.repeat(16), log.verifier());
        assertEquals(16, assertInstanceOf(NoteVerification.Verified.class, sixteen).signedBy().size());
    }

    @Test
    void refusesToSignTextThatIsNotANoteText() {
        assertThrows(IllegalArgumentException.class, () -> SignedNote.sign("no newline", List.of(log)));
        assertThrows(IllegalArgumentException.class, () -> SignedNote.sign("", List.of(log)));
        assertThrows(IllegalArgumentException.class, () -> SignedNote.sign("tab\there\n", List.of(log)));
        assertThrows(IllegalArgumentException.class, () -> SignedNote.sign("x\n", List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new NoteSigner("has space", Ed25519SigningKey.fromSeed(seed(3))));
    }
}
