package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.cloakgate.ledger.ProofCheck.Malformed;
import dev.cloakgate.ledger.ProofCheck.Root;
import dev.cloakgate.ledger.ProofCheck.RootMismatch;
import dev.cloakgate.ledger.ProofCheck.SizeOutOfRange;
import dev.cloakgate.ledger.ProofCheck.Verified;
import dev.cloakgate.ledger.ProofCheck.WrongProofLength;

class InclusionVerifierTest {

    private final InclusionVerifier verifier = new InclusionVerifier();

    @Test
    void publishedAuditPathsVerify() {
        for (Vectors.Inclusion v : Vectors.INCLUSION) {
            byte[] leaf = NaiveRfc6962.leafHash(Vectors.LEAVES.get((int) v.index()));
            assertEquals(new Verified(),
                    verifier.verify(v.index(), v.size(), leaf, v.path(), Vectors.ROOTS.get((int) v.size())));
        }
    }

    @Test
    void naiveAuditPathsVerifyForEveryLeafOfTheReferenceTrees() {
        for (int n = 1; n <= 8; n++) {
            List<byte[]> d = Vectors.LEAVES.subList(0, n);
            for (int i = 0; i < n; i++) {
                assertEquals(new Verified(), verifier.verify(i, n, NaiveRfc6962.leafHash(d.get(i)),
                        NaiveRfc6962.path(i, d), Vectors.ROOTS.get(n)), "leaf " + i + " of " + n);
            }
        }
    }

    @Test
    void randomTreesUpTo300EveryPathVerifiesAndEveryCorruptionFailsForItsReason() {
        long seed = 6962_9162L;
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            int n = 1 + random.nextInt(300);
            Vectors.Built built = Vectors.build(Vectors.entryHashes(random, n + 1));
            MerkleProofs proofs = built.proofs();
            byte[] root = proofs.root(n);
            for (int i = 0; i < n; i++) {
                String where = "seed " + seed + " leaf " + i + " of " + n;
                byte[] leaf = built.leaves().leafHash(i);
                List<byte[]> path = proofs.inclusionProof(i, n);
                assertEquals(InclusionVerifier.expectedLength(i, n), path.size(), where);
                assertEquals(new Verified(), verifier.verify(i, n, leaf, path, root), where);

                for (int e = 0; e < path.size(); e++) {
                    assertEquals(new RootMismatch(Root.TREE), verifier.verify(i, n, leaf, flip(path, e), root),
                            where + " flipped proof[" + e + "]");
                }
                byte[] otherLeaf = leaf.clone();
                otherLeaf[31] ^= 0x01;
                assertEquals(new RootMismatch(Root.TREE), verifier.verify(i, n, otherLeaf, path, root), where);
                if (!path.isEmpty()) {
                    assertEquals(new WrongProofLength(path.size(), path.size() - 1),
                            verifier.verify(i, n, leaf, path.subList(0, path.size() - 1), root), where);
                }
                List<byte[]> longer = new ArrayList<>(path);
                longer.add(root);
                assertEquals(new WrongProofLength(path.size(), path.size() + 1),
                        verifier.verify(i, n, leaf, longer, root), where);
                if (path.size() >= 2) {
                    assertEquals(new RootMismatch(Root.TREE), verifier.verify(i, n, leaf, swap(path), root), where);
                }
                // the same proof against the real root of another size, as a checkpoint of that size would give
                for (int other : new int[] {n - 1, n + 1}) {
                    ProofCheck got = verifier.verify(i, other, leaf, path, proofs.root(other));
                    if (i >= other) {
                        assertInstanceOf(SizeOutOfRange.class, got, where + " as size " + other);
                    } else if (InclusionVerifier.expectedLength(i, other) != path.size()) {
                        assertEquals(new WrongProofLength(InclusionVerifier.expectedLength(i, other), path.size()),
                                got, where + " as size " + other);
                    } else {
                        assertEquals(new RootMismatch(Root.TREE), got, where + " as size " + other);
                    }
                }
                // and the wrong index
                if (n > 1) {
                    int j = (i + 1) % n;
                    ProofCheck got = verifier.verify(j, n, leaf, path, root);
                    assertTrue(got instanceof RootMismatch || got instanceof WrongProofLength, where + " as " + j);
                }
            }
        }
    }

    @Test
    void sizesOutOfRangeAreNamed() {
        byte[] h = Vectors.ROOTS.get(1);
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(0, 0, h, List.of(), h));
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(1, 1, h, List.of(), h));
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(-1, 4, h, List.of(), h));
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(0, -4, h, List.of(), h));
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(Long.MAX_VALUE, Long.MIN_VALUE, h, List.of(), h));
        assertEquals(new Verified(), verifier.verify(0, 1, h, List.of(), h));
    }

    @Test
    void malformedInputIsNamedNotThrown() {
        byte[] h = Vectors.ROOTS.get(1);
        assertInstanceOf(Malformed.class, verifier.verify(0, 1, null, List.of(), h));
        assertInstanceOf(Malformed.class, verifier.verify(0, 1, h, null, h));
        assertInstanceOf(Malformed.class, verifier.verify(0, 1, h, List.of(), new byte[0]));
        assertInstanceOf(Malformed.class, verifier.verify(0, 2, h, Arrays.asList((byte[]) null), h));
        assertEquals(new Malformed("proof[1] is not 32 bytes"),
                verifier.verify(0, 4, h, List.of(h, new byte[33]), h));
    }

    @Test
    void hugeSizesDoNotThrowOrLoop() {
        byte[] h = Vectors.ROOTS.get(1);
        ProofCheck got = verifier.verify(Long.MAX_VALUE - 1, Long.MAX_VALUE, h, List.of(h, h), h);
        assertEquals(new WrongProofLength(InclusionVerifier.expectedLength(Long.MAX_VALUE - 1, Long.MAX_VALUE), 2),
                got);
    }

    static List<byte[]> flip(List<byte[]> proof, int index) {
        List<byte[]> out = new ArrayList<>(proof);
        byte[] changed = out.get(index).clone();
        changed[index % 32] ^= 0x10;
        out.set(index, changed);
        return out;
    }

    // swaps the first two elements, which differ unless SHA-256 collides
    static List<byte[]> swap(List<byte[]> proof) {
        List<byte[]> out = new ArrayList<>(proof);
        out.set(0, proof.get(1));
        out.set(1, proof.get(0));
        return out;
    }
}
