package dev.cloakgate.crypto;

import java.util.Base64;
import java.util.HexFormat;

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
        String[] parts = verifierKey.split("\\+", 3); // the base64 key may hold '+' itself: name and ID do not
        if (parts.length != 3) {
            throw new IllegalArgumentException("a verifier key is <name>+<key ID>+<key>");
        }
        if (!parts[1].matches("[0-9a-f]{8}")) {
            throw new IllegalArgumentException("a verifier key's ID is 8 lower-case hex digits");
        }
        byte[] typed;
        try {
            typed = Base64.getDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a verifier key's key is base64");
        }
        if (typed.length != 1 + Ed25519PublicKey.LENGTH || typed[0] != KeyId.ED25519) {
            throw new IllegalArgumentException("only Ed25519 verifier keys (type 0x01, 32 bytes) are supported");
        }
        byte[] key = new byte[Ed25519PublicKey.LENGTH];
        System.arraycopy(typed, 1, key, 0, key.length);
        KeyId id = KeyId.fromBytes(HexFormat.of().parseHex(parts[1]));
        return new NoteVerifier(parts[0], id, Ed25519PublicKey.of(key));
    }

    public String encoded() {
        byte[] typed = new byte[1 + Ed25519PublicKey.LENGTH];
        typed[0] = KeyId.ED25519;
        System.arraycopy(publicKey.bytes(), 0, typed, 1, Ed25519PublicKey.LENGTH);
        return name + "+" + keyId.hex() + "+" + Base64.getEncoder().encodeToString(typed);
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
