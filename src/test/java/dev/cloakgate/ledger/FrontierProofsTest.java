package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Consistency proofs from a frontier and the new leaves equal RFC 6962's PROOF from the whole tree, for every pair of sizes. */
class FrontierProofsTest {
    @Test
    void equalsTheProofFromTheWholeTreeForEveryPair() {
        int max = 70;
        TreeHasher hasher = new TreeHasher();
        InMemoryLeafSource leaves = new InMemoryLeafSource();
        for (int i = 0; i < max; i++) {
            leaves.add(hasher.leaf(ByteBuffer.allocate(32).putInt(i).array()));
        }
        MerkleProofs whole = new MerkleProofs(leaves);
        ConsistencyVerifier verifier = new ConsistencyVerifier();
        for (int m = 0; m <= max; m++) {
            MerkleTree tree = new MerkleTree();
            for (int i = 0; i < m; i++) {
                tree.appendLeafHash(leaves.leafHash(i));
            }
            for (int n = m; n <= max; n++) {
                List<byte[]> fresh = new ArrayList<>();
                for (int i = m; i < n; i++) {
                    fresh.add(leaves.leafHash(i));
                }
                List<byte[]> got = FrontierProofs.consistency(m, tree.frontier(), fresh);
                List<byte[]> want = whole.consistencyProof(m, n);
                assertEquals(want.size(), got.size(), m + " -> " + n);
                for (int i = 0; i < want.size(); i++) {
                    assertEquals(java.util.HexFormat.of().formatHex(want.get(i)), java.util.HexFormat.of().formatHex(got.get(i)),
                            m + " -> " + n + " element " + i);
                }
                if (m > 0) {
                    assertEquals(true, verifier.verify(m, n, whole.root(m), whole.root(n), got).verified(), m + " -> " + n);
                }
            }
        }
    }
}
