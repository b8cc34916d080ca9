package dev.cloakgate.ledger;

import java.security.MessageDigest;
import java.util.List;

import dev.cloakgate.ledger.ProofCheck.Malformed;
import dev.cloakgate.ledger.ProofCheck.Root;
import dev.cloakgate.ledger.ProofCheck.RootMismatch;
import dev.cloakgate.ledger.ProofCheck.SizeOutOfRange;
import dev.cloakgate.ledger.ProofCheck.Verified;
import dev.cloakgate.ledger.ProofCheck.WrongProofLength;

/**
 * Checks an audit path by RFC 9162 section 2.1.3.2, step for step. Stateless and thread-safe: each check uses
 * its own digest.
 *
 * <p>The tree size enters only through the shape of the walk, so a proof can also fit another size with the
 * same shape. The size and root must come together from one signed checkpoint.
 */
public final class InclusionVerifier {

    /**
     * Whether {@code leafHash} (SHA-256(0x00 || entry hash)) is leaf {@code leafIndex} of the tree of
     * {@code treeSize} leaves whose root is {@code root}, by {@code proof} (leaf-first, as produced by
     * {@link MerkleProofs#inclusionProof}).
     */
    public ProofCheck verify(long leafIndex, long treeSize, byte[] leafHash, List<byte[]> proof, byte[] root) {
        ProofCheck malformed = malformed(leafHash, proof, root);
        if (malformed != null) {
            return malformed;
        }
        if (leafIndex < 0 || treeSize < 0) {
            return new SizeOutOfRange("negative leaf index or tree size: " + leafIndex + ", " + treeSize);
        }
        // 1. leaf_index >= tree_size fails
        if (leafIndex >= treeSize) {
            return new SizeOutOfRange("leaf index " + leafIndex + " is not below tree size " + treeSize);
        }
        TreeHasher hasher = new TreeHasher();
        // 2. fn = leaf_index, sn = tree_size - 1; 3. r = hash
        long fn = leafIndex;
        long sn = treeSize - 1;
        byte[] r = leafHash;
        // 4. for each p in inclusion_path
        for (byte[] p : proof) {
            // a. sn == 0 with hashes left: the proof is too long
            if (sn == 0) {
                return wrongLength(leafIndex, treeSize, proof);
            }
            // b. p is a left sibling when fn is a right child, or when fn is the last node of its level
            if ((fn & 1) == 1 || fn == sn) {
                r = hasher.node(p, r);
                // ii. climb past the levels where this node had no right sibling
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                r = hasher.node(r, p);
            }
            // c.
            fn >>= 1;
            sn >>= 1;
        }
        // 5. sn must have reached 0 (else too short), and r must be the root
        if (sn != 0) {
            return wrongLength(leafIndex, treeSize, proof);
        }
        return MessageDigest.isEqual(r, root) ? new Verified() : new RootMismatch(Root.TREE);
    }

    /**
     * The number of hashes an audit path for this index and size has: the iterations of the walk above until sn
     * reaches 0, which depend on the two numbers only.
     */
    static int expectedLength(long leafIndex, long treeSize) {
        long fn = leafIndex;
        long sn = treeSize - 1;
        int count = 0;
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
        return count;
    }

    private static ProofCheck wrongLength(long leafIndex, long treeSize, List<byte[]> proof) {
        return new WrongProofLength(expectedLength(leafIndex, treeSize), proof.size());
    }

    private static ProofCheck malformed(byte[] leafHash, List<byte[]> proof, byte[] root) {
        if (!TreeHasher.isHash(leafHash)) {
            return new Malformed("leaf hash is not 32 bytes");
        }
        if (!TreeHasher.isHash(root)) {
            return new Malformed("root is not 32 bytes");
        }
        return ProofElements.malformed(proof);
    }
}
