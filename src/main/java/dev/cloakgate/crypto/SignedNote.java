package dev.cloakgate.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

import dev.cloakgate.crypto.NoteVerification.Kind;
import dev.cloakgate.crypto.NoteVerification.Problem;
import dev.cloakgate.crypto.NoteVerification.SignatureLine;

/**
 * C2SP signed-note: a UTF-8 text ending in a newline, a blank line, then lines
 * {@code — <key name> <base64(key ID || signature)>}, each signature over the text bytes alone.
 */
public final class SignedNote {

    /** The spec asks verifiers to accept at least 16; more is refused rather than read without bound. */
    public static final int MAX_SIGNATURES = 100;

    private static final String EM_DASH = "\u2014 ";

    private SignedNote() {
    }

    /** Signs {@code text} with every signer, in the order given. */
    public static String sign(String text, List<NoteSigner> signers) {
        checkText(text);
        if (signers.isEmpty()) {
            throw new IllegalArgumentException("a signed note has at least one signature");
        }
        byte[] message = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder note = new StringBuilder(text).append('\n');
        for (NoteSigner signer : signers) {
            byte[] signature = signer.sign(message);
            byte[] idAndSignature = ByteBuffer.allocate(4 + signature.length)
                    .put(signer.keyId().bytes()).put(signature).array();
            note.append(EM_DASH).append(signer.name()).append(' ')
                    .append(Base64.getEncoder().encodeToString(idAndSignature)).append('\n');
        }
        return note.toString();
    }

    /** Reads and verifies a note; the text is returned only inside {@link NoteVerification.Verified}. */
    public static NoteVerification open(byte[] note, Collection<NoteVerifier> trusted) {
        return read(note, trusted, new ArrayList<>());
    }

    /**
     * Who claims to have signed a well-formed note, none of it verified: for a note whose key is not at hand (a
     * rotated-out key), to name that key. Empty when the note is malformed. Never a reason to trust its text.
     */
    public static List<SignatureLine> claimedSigners(byte[] note) {
        List<SignatureLine> lines = new ArrayList<>();
        NoteVerification v = read(note, List.of(), lines);
        boolean wellFormed = v instanceof NoteVerification.Rejected r && r.problems().stream()
                .allMatch(p -> p.kind() == Kind.UNKNOWN_KEY || p.kind() == Kind.NO_TRUSTED_SIGNATURE);
        return wellFormed ? List.copyOf(lines) : List.of();
    }

    private static NoteVerification read(byte[] note, Collection<NoteVerifier> trusted, List<SignatureLine> unknown) {
        List<Problem> problems = new ArrayList<>();
        String whole;
        try {
            whole = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(note)).toString();
        } catch (CharacterCodingException e) {
            return rejected(Kind.MALFORMED, "not UTF-8");
        }
        if (whole.chars().anyMatch(c -> c < 0x20 && c != '\n')) {
            return rejected(Kind.MALFORMED, "control character other than newline");
        }
        // the last blank line separates text and signatures; the text keeps its own newline
        int split = whole.lastIndexOf("\n\n");
        if (split < 0) {
            return rejected(Kind.MALFORMED, "no blank line before the signatures");
        }
        String text = whole.substring(0, split + 1);
        String block = whole.substring(split + 2);
        if (block.isEmpty() || !block.endsWith("\n")) {
            return rejected(Kind.MALFORMED, "signature block missing or not ending in a newline");
        }
        String[] lines = block.substring(0, block.length() - 1).split("\n", -1);
        if (lines.length > MAX_SIGNATURES) {
            return rejected(Kind.TOO_MANY_SIGNATURES, lines.length + " signatures, at most " + MAX_SIGNATURES);
        }
        byte[] message = text.getBytes(StandardCharsets.UTF_8);
        List<NoteVerifier> signedBy = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            readSignature(lines[i], i + 1, message, trusted, signedBy, unknown, problems);
        }
        if (!problems.isEmpty()) {
            return new NoteVerification.Rejected(problems);
        }
        if (signedBy.isEmpty()) {
            for (SignatureLine line : unknown) {
                problems.add(new Problem(Kind.UNKNOWN_KEY, line.keyName() + " " + line.keyId()));
            }
            problems.add(new Problem(Kind.NO_TRUSTED_SIGNATURE, "no signature from a trusted key"));
            return new NoteVerification.Rejected(problems);
        }
        return new NoteVerification.Verified(text, signedBy, unknown);
    }

    private static void readSignature(String line, int number, byte[] message, Collection<NoteVerifier> trusted,
            List<NoteVerifier> signedBy, List<SignatureLine> unknown, List<Problem> problems) {
        String where = "signature line " + number;
        if (!line.startsWith(EM_DASH)) {
            problems.add(new Problem(Kind.MALFORMED, where + " does not start with an em dash and a space"));
            return;
        }
        String[] parts = line.substring(EM_DASH.length()).split(" ", -1);
        if (parts.length != 2) {
            problems.add(new Problem(Kind.MALFORMED, where + " is not <name> <signature>"));
            return;
        }
        try {
            NoteVerifier.checkKeyName(parts[0]);
        } catch (IllegalArgumentException e) {
            problems.add(new Problem(Kind.MALFORMED, where + ": " + e.getMessage()));
            return;
        }
        byte[] decoded = strictBase64(parts[1]);
        if (decoded == null || decoded.length < 5) {
            problems.add(new Problem(Kind.MALFORMED, where + ": signature is not base64 of a key ID and a signature"));
            return;
        }
        KeyId id = KeyId.fromBytes(Arrays.copyOf(decoded, 4));
        byte[] signature = Arrays.copyOfRange(decoded, 4, decoded.length);
        NoteVerifier key = trusted.stream()
                .filter(k -> k.name().equals(parts[0]) && k.keyId().equals(id))
                .findFirst().orElse(null);
        if (key == null) {
            unknown.add(new SignatureLine(parts[0], id)); // same name or same ID alone is still unknown
        } else if (key.verify(message, signature)) {
            signedBy.add(key);
        } else {
            problems.add(new Problem(Kind.BAD_SIGNATURE, where + " by " + parts[0] + " " + id + " does not verify"));
        }
    }

    /** Standard base64 with padding, and only its one spelling of the bytes. */
    private static byte[] strictBase64(String text) {
        try {
            byte[] bytes = Base64.getDecoder().decode(text);
            return Base64.getEncoder().encodeToString(bytes).equals(text) ? bytes : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static void checkText(String text) {
        if (text.isEmpty() || !text.endsWith("\n")) {
            throw new IllegalArgumentException("note text is not empty and ends with a newline");
        }
        if (text.chars().anyMatch(c -> c < 0x20 && c != '\n')) {
            throw new IllegalArgumentException("note text has no control characters other than newline");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("note text holds an unpaired surrogate");
            }
        }
    }

    private static NoteVerification rejected(Kind kind, String detail) {
        return new NoteVerification.Rejected(List.of(new Problem(kind, detail)));
    }
}
