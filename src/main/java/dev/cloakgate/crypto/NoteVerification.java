package dev.cloakgate.crypto;

import java.util.List;

/** The outcome of opening a signed note against a set of trusted keys. */
public sealed interface NoteVerification {

    /**
     * At least one trusted key signed the text and no trusted key's signature failed. {@code ignored} are the
     * signatures from keys not trusted here (witnesses, rotated keys), which the spec says to skip.
     */
    record Verified(String text, List<NoteVerifier> signedBy, List<SignatureLine> ignored) implements NoteVerification {
        public Verified {
            signedBy = List.copyOf(signedBy);
            ignored = List.copyOf(ignored);
        }
    }

    /** The text must not be used; every problem found is listed. */
    record Rejected(List<Problem> problems) implements NoteVerification {
        public Rejected {
            problems = List.copyOf(problems);
        }
    }

    /** A signature line as read: who claims to have signed. */
    record SignatureLine(String keyName, KeyId keyId) {
    }

    record Problem(Kind kind, String detail) {
    }

    enum Kind {
        /** Not a signed note: bad UTF-8, control characters, no signature block, a broken signature line. */
        MALFORMED,
        /** More signature lines than this verifier reads. */
        TOO_MANY_SIGNATURES,
        /** A trusted key's signature does not verify: the whole note is refused. */
        BAD_SIGNATURE,
        /** A signature from a key not trusted here; reported only when nothing trusted verified. */
        UNKNOWN_KEY,
        /** No trusted key signed the note. */
        NO_TRUSTED_SIGNATURE
    }
}
