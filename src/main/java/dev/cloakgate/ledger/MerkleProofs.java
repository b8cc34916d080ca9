package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Roots of earlier sizes, audit paths and consistency proofs (RFC 6962 section 2.1: MTH, PATH, PROOF), computed
 * from the stored leaf hashes.
 *
 * <p>Cost: the first request touching a range hashes every leaf in it, O(n) (about a second for 1,000,000 leaves).
 * Complete subtrees of at least {@value #MEMO_MIN_LEAVES} leaves are memoised, since in an append-only log they
 * never change and every later tree size reuses them; after that a root or proof costs O(log n) lookups plus at
 * most a few thousand hashes. The memo grows to about 2n / {@value #MEMO_MIN_LEAVES} entries (8,000 for a million
 * leaves). Requests are serialised: the memo and the digest are shared.
 */
public final class MerkleProofs {

    // below this a subtree is cheaper to rehash than to remember
    static final long MEMO_MIN_LEAVES = 256;

    private record Span(long start, long size) {
    }

    private final LeafSource leaves;
    private final TreeHasher hasher = new TreeHasher();
    private final Map<Span, byte[]> memo = new HashMap<>();

    public MerkleProofs(LeafSource leaves) {
        this.leaves = leaves;
    }

    /** MTH of the first {@code size} leaves, {@code 0 <= size <= leaves.size()}. */
    public synchronized byte[] root(long size) {
        requireStored(size);
        return size == 0 ? hasher.emptyRoot() : hash(0, size).clone();
    }

    /**
     * PATH(index, D[size]): the audit path of leaf {@code index} in the tree of the first {@code size} leaves,
     * ordered from the leaf's sibling up to the root's child, as RFC 9162 section 2.1.3.2 consumes it.
     */
    public synchronized List<byte[]> inclusionProof(long index, long size) {
        requireStored(size);
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf " + index + " is not in a tree of size " + size);
        }
        List<byte[]> path = new ArrayList<>();
        long start = 0;
        long n = size;
        long m = index;
        // walk down from the root, taking the sibling of the side that holds the leaf
        while (n > 1) {
            long k = splitPoint(n);
            if (m < k) {
                path.add(hash(start + k, n - k));
                n = k;
            } else {
                path.add(hash(start, k));
                start += k;
                m -= k;
                n -= k;
            }
        }
        return reversedCopies(path);
    }

    /**
     * PROOF(first, D[second]) = SUBPROOF(first, D[second], true), for {@code 0 <= first <= second <= size()}.
     * Empty when first is 0 or equal to second: there is nothing to prove (RFC 6962 defines SUBPROOF(m, D[m],
     * true) as empty; the empty tree is a prefix of every tree).
     */
    public synchronized List<byte[]> consistencyProof(long first, long second) {
        requireStored(second);
        if (first < 0 || first > second) {
            throw new IllegalArgumentException("no consistency proof from size " + first + " to " + second);
        }
        if (first == 0 || first == second) {
            return List.of();
        }
        List<byte[]> proof = new ArrayList<>();
        long start = 0;
        long n = second;
        long m = first;
        boolean wholeOldTree = true; // SUBPROOF's b: still on the old tree's own root
        while (m != n) {
            long k = splitPoint(n);
            if (m <= k) {
                proof.add(hash(start + k, n - k));
                n = k;
            } else {
                proof.add(hash(start, k));
                start += k;
                m -= k;
                n -= k;
                wholeOldTree = false;
            }
        }
        if (!wholeOldTree) {
            // the old tree's root is a node of the new tree only when it is whole; otherwise name this subtree
            proof.add(hash(start, n));
        }
        return reversedCopies(proof);
    }

    // MTH(D[start : start + n]) for n >= 1
    private byte[] hash(long start, long n) {
        if (n == 1) {
            return leaves.leafHash(start);
        }
        boolean memoised = n >= MEMO_MIN_LEAVES && Long.bitCount(n) == 1;
        if (memoised) {
            byte[] known = memo.get(new Span(start, n));
            if (known != null) {
                return known;
            }
        }
        long k = splitPoint(n);
        byte[] h = hasher.node(hash(start, k), hash(start + k, n - k));
        if (memoised) {
            memo.put(new Span(start, n), h);
        }
        return h;
    }

    // the largest power of two smaller than n, for n > 1: where RFC 6962 splits a tree of n leaves
    private static long splitPoint(long n) {
        return Long.highestOneBit(n - 1);
    }

    private void requireStored(long size) {
        long stored = leaves.size();
        if (size < 0 || size > stored) {
            throw new IllegalArgumentException("size " + size + " is outside 0.." + stored);
        }
    }

    // proofs are built root-first; callers get them leaf-first, and own their copies (memo entries stay private)
    private static List<byte[]> reversedCopies(List<byte[]> hashes) {
        List<byte[]> out = new ArrayList<>(hashes.size());
        for (byte[] h : hashes) {
            out.add(h.clone());
        }
        Collections.reverse(out);
        return Collections.unmodifiableList(out);
    }
}
