package dev.cloakgate.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A C2SP signed-note key ID: the first four bytes, big-endian, of SHA-256(key name || 0x0A || 0x01 ||
 * 32-byte Ed25519 public key). Short on purpose: it names a key, the signature is what proves it.
 */
public record KeyId(int value) {

    /** C2SP signed-note signature type byte for Ed25519. */
    static final byte ED25519 = 0x01;

    public static KeyId of(String keyName, Ed25519PublicKey key) {
        return of(keyName, ED25519, key);
    }

    /** The key ID under another signature type byte (C2SP signed-note's list: 0x04 is a cosignature/v1 key). */
    static KeyId of(String keyName, byte signatureType, Ed25519PublicKey key) {
        MessageDigest sha256 = sha256();
        sha256.update(keyName.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) '\n');
        sha256.update(signatureType);
        sha256.update(key.bytes());
        return new KeyId(ByteBuffer.wrap(sha256.digest()).getInt());
    }

    public static KeyId fromBytes(byte[] four) {
        if (four.length != 4) {
            throw new IllegalArgumentException("a key ID is 4 bytes");
        }
        return new KeyId(ByteBuffer.wrap(four).getInt());
    }

    public byte[] bytes() {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    /** Eight lower-case hex digits, as in a verifier key string. */
    public String hex() {
        return String.format("%08x", value);
    }

    @Override
    public String toString() {
        return hex();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
