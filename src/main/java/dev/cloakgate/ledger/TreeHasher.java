package dev.cloakgate.ledger;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * RFC 6962 section 2.1 hashing with SHA-256: a leaf is SHA-256(0x00 || data), an interior node is
 * SHA-256(0x01 || left || right), and the empty tree is SHA-256 of nothing. The distinct prefixes keep a leaf
 * from ever being passed off as a node (second-preimage resistance).
 *
 * <p>Not thread-safe: it owns one {@link MessageDigest}. Give each thread its own.
 */
public final class TreeHasher {

    /** Bytes in every hash this tree deals in. */
    public static final int HASH_SIZE = 32;

    private static final byte LEAF_PREFIX = 0x00;
    private static final byte NODE_PREFIX = 0x01;

    private final MessageDigest sha256;

    public TreeHasher() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // every Java platform is required to provide SHA-256
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }

    /** MTH({}) = SHA-256(""). */
    public byte[] emptyRoot() {
        sha256.reset();
        return sha256.digest();
    }

    /** MTH({d}) = SHA-256(0x00 || d). The ledger's leaf data is a 32-byte entry hash. */
    public byte[] leaf(byte[] data) {
        sha256.reset();
        sha256.update(LEAF_PREFIX);
        sha256.update(data);
        return sha256.digest();
    }

    /** SHA-256(0x01 || left || right). */
    public byte[] node(byte[] left, byte[] right) {
        sha256.reset();
        sha256.update(NODE_PREFIX);
        sha256.update(left);
        sha256.update(right);
        return sha256.digest();
    }

    /** Whether a value has the shape of a hash here: present and 32 bytes. */
    static boolean isHash(byte[] value) {
        return value != null && value.length == HASH_SIZE;
    }
}
