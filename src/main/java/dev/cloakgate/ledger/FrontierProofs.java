package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RFC 6962 consistency proofs PROOF(m, D[n]) from what a running log keeps cheaply: the frontier of the tree at m
 * (the roots of its complete subtrees, as {@link MerkleTree#frontier()} gives them) and the leaf hashes m..n-1.
 * Every node such a proof names lies wholly before m, and is then one of those frontier roots, or wholly at or
 * after m, and is then hashed from the new leaves; so a proof to a witness costs O(n - m) hashes, not a pass
 * over the whole log as {@link MerkleProofs} would take the first time.
 */
public final class FrontierProofs {
    private record Span(long start, long size) {
    }

    private final TreeHasher hasher = new TreeHasher();
    private final Map<Span, byte[]> old = new HashMap<>();
    private final long m;
    private final List<byte[]> newLeaves;

    private FrontierProofs(long m, List<byte[]> frontier, List<byte[]> newLeaves) {
        this.m = m;
        this.newLeaves = newLeaves;
        long start = 0;
        int i = 0;
        for (int level = Long.SIZE - 1; level >= 0; level--) {
            if ((m >>> level & 1) == 1) {
                old.put(new Span(start, 1L << level), frontier.get(i++));
                start += 1L << level;
            }
        }
    }

    /**
     * PROOF(m, D[n]) for {@code 0 <= m <= n}, leaf-first as RFC 9162's verifier consumes it; empty when m is 0 or n.
     *
     * @param frontierAtM the frontier of the tree of the first m leaves, largest subtree first
     * @param newLeaves the leaf hashes of leaves m..n-1
     */
    public static List<byte[]> consistency(long m, List<byte[]> frontierAtM, List<byte[]> newLeaves) {
        long n = m + newLeaves.size();
        if (m < 0 || frontierAtM.size() != Long.bitCount(m)) {
            throw new IllegalArgumentException("a tree of " + m + " leaves has " + Long.bitCount(Math.max(m, 0))
                    + " frontier hashes, not " + frontierAtM.size());
        }
        if (m == 0 || m == n) {
            return List.of();
        }
        FrontierProofs p = new FrontierProofs(m, frontierAtM, newLeaves);
        // SUBPROOF(m, D[0:n], true) unrolled, as MerkleProofs does it
        List<byte[]> proof = new ArrayList<>();
        long start = 0;
        long size = n;
        long k0 = m;
        boolean wholeOldTree = true;
        while (k0 != size) {
            long k = Long.highestOneBit(size - 1);
            if (k0 <= k) {
                proof.add(p.hash(start + k, size - k));
                size = k;
            } else {
                proof.add(p.hash(start, k));
                start += k;
                k0 -= k;
                size -= k;
                wholeOldTree = false;
            }
        }
        if (!wholeOldTree) {
            proof.add(p.hash(start, size));
        }
        Collections.reverse(proof);
        return Collections.unmodifiableList(proof);
    }

    private byte[] hash(long start, long size) {
        if (start + size <= m) {
            byte[] h = old.get(new Span(start, size));
            if (h == null) {
                throw new IllegalStateException("node " + start + "+" + size + " is not a frontier root of size " + m);
            }
            return h;
        }
        if (start < m) {
            throw new IllegalStateException("node " + start + "+" + size + " straddles size " + m);
        }
        return fresh(start - m, size);
    }

    // MTH of new leaves [from, from + size), from relative to m
    private byte[] fresh(long from, long size) {
        if (size == 1) {
            return newLeaves.get((int) from);
        }
        long k = Long.highestOneBit(size - 1);
        return hasher.node(fresh(from, k), fresh(from + k, size - k));
    }
}
