package dev.cloakgate.ledger;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

import dev.cloakgate.ledger.ProofCheck.Malformed;
import dev.cloakgate.ledger.ProofCheck.Root;
import dev.cloakgate.ledger.ProofCheck.RootMismatch;
import dev.cloakgate.ledger.ProofCheck.SizeOutOfRange;
import dev.cloakgate.ledger.ProofCheck.Verified;
import dev.cloakgate.ledger.ProofCheck.WrongProofLength;

/**
 * Checks that a tree of {@code first} leaves is a prefix of one of {@code second} leaves, by RFC 9162 section
 * 2.1.4.2 step for step for {@code 0 < first < second}. Stateless and thread-safe.
 *
 * <p>The RFC's algorithm covers 0 < first < second only. Outside it, with an empty proof: equal sizes are
 * consistent when their roots are equal, and the empty tree (whose root must be SHA-256("")) is a prefix of any
 * tree. As with inclusion, sizes and roots must come from signed checkpoints: the sizes only shape the walk.
 */
public final class ConsistencyVerifier {

    public ProofCheck verify(long first, long second, byte[] firstRoot, byte[] secondRoot, List<byte[]> proof) {
        if (!TreeHasher.isHash(firstRoot)) {
            return new Malformed("first root is not 32 bytes");
        }
        if (!TreeHasher.isHash(secondRoot)) {
            return new Malformed("second root is not 32 bytes");
        }
        ProofCheck malformed = ProofElements.malformed(proof);
        if (malformed != null) {
            return malformed;
        }
        if (first < 0 || second < 0) {
            return new SizeOutOfRange("negative tree size: " + first + ", " + second);
        }
        if (first > second) {
            return new SizeOutOfRange("first size " + first + " is past second size " + second);
        }
        TreeHasher hasher = new TreeHasher();
        if (first == 0 || first == second) {
            if (!proof.isEmpty()) {
                return new WrongProofLength(0, proof.size());
            }
            if (first == 0) {
                return MessageDigest.isEqual(firstRoot, hasher.emptyRoot()) ? new Verified()
                        : new RootMismatch(Root.FIRST);
            }
            return MessageDigest.isEqual(firstRoot, secondRoot) ? new Verified() : new RootMismatch(Root.SECOND);
        }

        // 1. an empty consistency_path fails
        if (proof.isEmpty()) {
            return wrongLength(first, second, proof);
        }
        // 2. when first is a power of two its root is a node of the second tree, and the proof leaves it out
        List<byte[]> path = new ArrayList<>(proof.size() + 1);
        if (Long.bitCount(first) == 1) {
            path.add(firstRoot);
        }
        path.addAll(proof);
        // 3.
        long fn = first - 1;
        long sn = second - 1;
        // 4. skip the levels where the old tree's last node is a right child inside a complete subtree
        while ((fn & 1) == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        // 5.
        byte[] fr = path.get(0);
        byte[] sr = path.get(0);
        // 6. for each subsequent c
        for (int i = 1; i < path.size(); i++) {
            byte[] c = path.get(i);
            // a. sn == 0 with hashes left: the proof is too long
            if (sn == 0) {
                return wrongLength(first, second, proof);
            }
            // b. c is a left sibling: it belongs to both trees
            if ((fn & 1) == 1 || fn == sn) {
                fr = hasher.node(c, fr);
                sr = hasher.node(c, sr);
                // iii. climb past the levels where this node had no right sibling
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                // c is a right sibling: only the second tree has it
                sr = hasher.node(sr, c);
            }
            // c.
            fn >>= 1;
            sn >>= 1;
        }
        // 7. sn must have reached 0 (else too short), then fr and sr must be the two roots
        if (sn != 0) {
            return wrongLength(first, second, proof);
        }
        if (!MessageDigest.isEqual(fr, firstRoot)) {
            return new RootMismatch(Root.FIRST);
        }
        if (!MessageDigest.isEqual(sr, secondRoot)) {
            return new RootMismatch(Root.SECOND);
        }
        return new Verified();
    }

    /**
     * The number of hashes a consistency proof between these sizes has (the proof as sent, without the prepended
     * first root): the elements the walk above consumes until sn reaches 0, which depend on the sizes only.
     */
    static int expectedLength(long first, long second) {
        if (first <= 0 || first >= second) {
            return 0;
        }
        long fn = first - 1;
        long sn = second - 1;
        while ((fn & 1) == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        int count = 1;
        while (sn != 0) {
            if (((fn & 1) == 1 || fn == sn) && (fn & 1) == 0) {
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            }
            fn >>= 1;
            sn >>= 1;
            count++;
        }
        return Long.bitCount(first) == 1 ? count - 1 : count;
    }

    private static ProofCheck wrongLength(long first, long second, List<byte[]> proof) {
        return new WrongProofLength(expectedLength(first, second), proof.size());
    }
}
