package dev.cloakgate.ledger;

/**
 * The ledger's growing RFC 6962 tree, kept as its frontier: the roots of the complete subtrees that the binary
 * form of the size decomposes into (one per set bit). That is all a root needs, so an append costs O(1)
 * amortised hashes (at most log2 n) and {@link #root()} costs O(log n), whatever the size.
 *
 * <p>It stores no leaves: the caller persists each returned leaf hash in its {@link LeafSource}, where
 * {@link MerkleProofs} finds them for older roots and proofs. Not thread-safe: the ledger's single writer owns it.
 */
public final class MerkleTree {

    private final TreeHasher hasher = new TreeHasher();
    // frontier[level] is the root of a complete subtree of 2^level leaves; present iff bit `level` of size is set
    private final byte[][] frontier = new byte[Long.SIZE][];
    private long size;

    /** A tree whose frontier is rebuilt from stored leaf hashes, as on restart: O(n) once. */
    public static MerkleTree restore(LeafSource leaves) {
        MerkleTree tree = new MerkleTree();
        long n = leaves.size();
        for (long i = 0; i < n; i++) {
            tree.appendLeafHash(leaves.leafHash(i));
        }
        return tree;
    }

    /**
     * Appends one leaf and returns its leaf hash SHA-256(0x00 || data) for the caller to store. The ledger's leaf
     * data is the entry's 32-byte hash.
     */
    public byte[] append(byte[] leafData) {
        byte[] leafHash = hasher.leaf(leafData);
        appendLeafHash(leafHash);
        return leafHash;
    }

    /** Appends a leaf whose leaf hash was computed already (as when restoring from storage). */
    public void appendLeafHash(byte[] leafHash) {
        if (!TreeHasher.isHash(leafHash)) {
            throw new IllegalArgumentException("a leaf hash is 32 bytes");
        }
        if (size == Long.MAX_VALUE) {
            throw new IllegalStateException("tree is full");
        }
        // adding 1 to the size carries through the trailing set bits: each carry merges two equal subtrees
        byte[] carry = leafHash;
        int level = 0;
        while ((size >>> level & 1) == 1) {
            carry = hasher.node(frontier[level], carry);
            frontier[level] = null;
            level++;
        }
        frontier[level] = carry;
        size++;
    }

    public long size() {
        return size;
    }

    /**
     * MTH of all leaves so far. RFC 6962 splits at the largest power of two below n, so the tree is the frontier
     * subtrees joined right to left, smallest first.
     */
    public byte[] root() {
        if (size == 0) {
            return hasher.emptyRoot();
        }
        byte[] acc = null;
        for (int level = 0; level < Long.SIZE; level++) {
            if ((size >>> level & 1) == 1) {
                acc = acc == null ? frontier[level].clone() : hasher.node(frontier[level], acc);
            }
        }
        return acc;
    }
}
