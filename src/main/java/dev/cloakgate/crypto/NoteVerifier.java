package dev.cloakgate.crypto;

/**
 * A trusted signed-note key: name, key ID and Ed25519 public key. Its text form is the verifier key string
 * {@code <name>+<8 hex digit key ID>+<base64(0x01 || public key)>} used by the Go note package and its peers.
 */
public record NoteVerifier(String name, KeyId keyId, Ed25519PublicKey publicKey) {

    public NoteVerifier {
        checkKeyName(name);
        if (!keyId.equals(KeyId.of(name, publicKey))) {
            throw new IllegalArgumentException("key ID " + keyId + " does not belong to key " + name);
        }
    }

    public static NoteVerifier of(String name, Ed25519PublicKey publicKey) {
        return new NoteVerifier(name, KeyId.of(name, publicKey), publicKey);
    }

    /** Parses a verifier key string; the key ID must be the one the name and key hash to. */
    public static NoteVerifier parse(String verifierKey) {
        VerifierKeyText v = VerifierKeyText.parse(verifierKey, KeyId.ED25519, "a verifier key");
        return new NoteVerifier(v.name(), v.keyId(), v.publicKey());
    }

    public String encoded() {
        return VerifierKeyText.encode(name, keyId, KeyId.ED25519, publicKey);
    }

    public boolean verify(byte[] message, byte[] signature) {
        return publicKey.verify(message, signature);
    }

    /** C2SP signed-note: key names are non-empty, without Unicode spaces or '+' (and, in a note, controls). */
    static void checkKeyName(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a key name is not empty");
        }
        name.codePoints().forEach(c -> {
            if (c == '+' || Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException(String.format("a key name has no spaces, controls or '+' (U+%04X)", c));
            }
        });
    }
}
