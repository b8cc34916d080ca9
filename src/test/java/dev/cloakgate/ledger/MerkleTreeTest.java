package dev.cloakgate.ledger;

import static dev.cloakgate.ledger.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class MerkleTreeTest {

    @Test
    void emptyTreeRootIsSha256OfNothing() {
        assertEquals(hex(Vectors.ROOTS.get(0)), hex(new MerkleTree().root()));
        assertEquals(hex(Vectors.ROOTS.get(0)), hex(NaiveRfc6962.mth(List.of())));
    }

    @Test
    void rootsOfTheReferenceLeavesMatchThePublishedVectorsAtEverySize() {
        MerkleTree tree = new MerkleTree();
        for (int n = 1; n <= Vectors.LEAVES.size(); n++) {
            tree.append(Vectors.LEAVES.get(n - 1));
            assertEquals(n, tree.size());
            assertEquals(hex(Vectors.ROOTS.get(n)), hex(tree.root()), "size " + n);
            // the naive transcription agrees, so it can be trusted where no published vector exists
            assertEquals(hex(Vectors.ROOTS.get(n)), hex(NaiveRfc6962.mth(Vectors.LEAVES.subList(0, n))));
        }
    }

    @Test
    void appendReturnsTheRfcLeafHash() {
        for (byte[] data : Vectors.LEAVES) {
            assertArrayEquals(NaiveRfc6962.leafHash(data), new MerkleTree().append(data));
        }
    }

    @Test
    void frontierRootEqualsNaiveRootForEverySizeUpTo300() {
        List<byte[]> data = Vectors.entryHashes(new Random(6962), 300);
        MerkleTree tree = new MerkleTree();
        for (int n = 1; n <= data.size(); n++) {
            tree.append(data.get(n - 1));
            assertEquals(hex(NaiveRfc6962.mth(data.subList(0, n))), hex(tree.root()), "size " + n);
        }
    }

    @Test
    void restoringFromStoredLeavesGivesTheSameTree() {
        Vectors.Built built = Vectors.build(Vectors.entryHashes(new Random(9162), 257));
        MerkleTree restored = MerkleTree.restore(built.leaves());
        assertEquals(257, restored.size());
        assertArrayEquals(built.tree().root(), restored.root());
    }

    @Test
    void rootIsACopyTheCallerCannotUseToCorruptTheTree() {
        MerkleTree tree = new MerkleTree();
        tree.append(new byte[32]);
        byte[] root = tree.root();
        root[0] ^= 1;
        assertEquals(hex(NaiveRfc6962.mth(List.of(new byte[32]))), hex(tree.root()));
    }

    @Test
    void aLeafHashMustBe32Bytes() {
        assertThrows(IllegalArgumentException.class, () -> new MerkleTree().appendLeafHash(new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> new InMemoryLeafSource().add(null));
    }

    @Test
    void aMillionLeavesAppendAndRootQuickly() {
        int n = 1_000_000;
        MerkleTree tree = new MerkleTree();
        InMemoryLeafSource leaves = new InMemoryLeafSource();
        ByteBuffer entry = ByteBuffer.allocate(32);

        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            entry.putLong(0, i).putLong(8, ~i).putLong(16, i * 0x9E3779B97F4A7C15L).putLong(24, i ^ 0x5bd1e995L);
            leaves.add(tree.append(entry.array()));
        }
        long t1 = System.nanoTime();
        byte[] root = tree.root();
        long t2 = System.nanoTime();

        // what verifying an export costs: every subtree rehashed from the stored leaf hashes
        MerkleProofs proofs = new MerkleProofs(leaves);
        byte[] recomputed = proofs.root(n);
        long t3 = System.nanoTime();
        // a fresh instance pays the O(n) first time; the warm one reuses its memoised subtrees
        List<byte[]> consistency = new MerkleProofs(leaves).consistencyProof(654_321, n);
        long t4 = System.nanoTime();
        List<byte[]> again = proofs.consistencyProof(654_321, n);
        List<byte[]> inclusion = proofs.inclusionProof(123_456, n);
        long t5 = System.nanoTime();
        boolean ok = new ConsistencyVerifier().verify(654_321, n, proofs.root(654_321), root, consistency).verified()
                && new InclusionVerifier().verify(123_456, n, leaves.leafHash(123_456), inclusion, root).verified();
        long t6 = System.nanoTime();

        System.out.printf(
                "MerkleTree 1,000,000 leaves: append %d ms, frontier root %d us, root recomputed from stored leaves"
                        + " %d ms, consistency proof on a cold instance %d ms, consistency + inclusion proof on the warm one %d us,"
                        + " root(654321) + verify both %d ms%n",
                (t1 - t0) / 1_000_000, (t2 - t1) / 1_000, (t3 - t2) / 1_000_000, (t4 - t3) / 1_000_000,
                (t5 - t4) / 1_000, (t6 - t5) / 1_000_000);
        assertArrayEquals(root, recomputed);
        assertEquals(Vectors.hex(consistency), Vectors.hex(again));
        assertTrue(ok);
        assertTrue(t2 - t0 < 30_000_000_000L, "a million appends and a root took " + (t2 - t0) / 1_000_000 + " ms");
        assertTrue(t6 - t0 < 30_000_000_000L, "the whole run took " + (t6 - t0) / 1_000_000 + " ms");
    }

    @Test
    void aTreeContinuedFromItsFrontierHasTheSameRootsAsTheWholeTree() {
        List<byte[]> data = Vectors.entryHashes(new Random(8785), 70);
        for (int cut = 0; cut <= 70; cut++) {
            MerkleTree whole = new MerkleTree();
            for (int i = 0; i < cut; i++) {
                whole.append(data.get(i));
            }
            List<byte[]> frontier = whole.frontier();
            assertEquals(Long.bitCount(cut), frontier.size(), "size " + cut);
            MerkleTree continued = MerkleTree.fromFrontier(cut, frontier);
            assertArrayEquals(whole.root(), continued.root(), "size " + cut);
            for (int i = cut; i < 70; i++) {
                whole.append(data.get(i));
                continued.append(data.get(i));
                assertArrayEquals(whole.root(), continued.root(), "cut " + cut + " size " + (i + 1));
            }
        }
    }

    @Test
    void theFrontierIsTheCompleteSubtreeRootsLargestFirst() {
        List<byte[]> data = Vectors.entryHashes(new Random(1), 13);
        MerkleTree tree = new MerkleTree();
        data.forEach(tree::append);
        List<byte[]> f = tree.frontier();
        // 13 = 8 + 4 + 1
        assertEquals(hex(NaiveRfc6962.mth(data.subList(0, 8))), hex(f.get(0)));
        assertEquals(hex(NaiveRfc6962.mth(data.subList(8, 12))), hex(f.get(1)));
        assertEquals(hex(NaiveRfc6962.mth(data.subList(12, 13))), hex(f.get(2)));
        f.get(0)[0] ^= 1; // a copy: the tree is unchanged
        assertEquals(hex(NaiveRfc6962.mth(data)), hex(tree.root()));
    }

    @Test
    void aFrontierOfTheWrongShapeIsRefused() {
        byte[] h = new byte[32];
        assertThrows(IllegalArgumentException.class, () -> MerkleTree.fromFrontier(3, List.of(h)));
        assertThrows(IllegalArgumentException.class, () -> MerkleTree.fromFrontier(2, List.of(new byte[31])));
        assertThrows(IllegalArgumentException.class, () -> MerkleTree.fromFrontier(-1, List.of()));
    }
}
