package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.List;

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
     * A tree continued from a frontier someone else computed (an export's prefix): {@code hashes} are the roots of
     * the complete subtrees of the first {@code size} leaves, largest first, as {@link #frontier()} gives them.
     * Enough to compute the root at {@code size} and every later size without the earlier leaves.
     */
    public static MerkleTree fromFrontier(long size, List<byte[]> hashes) {
        if (size < 0) {
            throw new IllegalArgumentException("tree size " + size + " is negative");
        }
        if (hashes.size() != Long.bitCount(size)) {
            throw new IllegalArgumentException("a tree of " + size + " leaves has " + Long.bitCount(size)
                    + " frontier hashes, not " + hashes.size());
        }
        MerkleTree tree = new MerkleTree();
        int i = 0;
        for (int level = Long.SIZE - 1; level >= 0; level--) {
            if ((size >>> level & 1) == 1) {
                byte[] h = hashes.get(i++);
                if (!TreeHasher.isHash(h)) {
                    throw new IllegalArgumentException("frontier hash " + (i - 1) + " is not 32 bytes");
                }
                tree.frontier[level] = h.clone();
            }
        }
        tree.size = size;
        return tree;
    }

    /** The roots of the complete subtrees the size decomposes into, largest (leftmost) first; copies. */
    public List<byte[]> frontier() {
        List<byte[]> out = new ArrayList<>(Long.bitCount(size));
        for (int level = Long.SIZE - 1; level >= 0; level--) {
            if ((size >>> level & 1) == 1) {
                out.add(frontier[level].clone());
            }
        }
        return out;
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
