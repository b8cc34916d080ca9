package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

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

class ConsistencyVerifierTest {

    private final ConsistencyVerifier verifier = new ConsistencyVerifier();

    @Test
    void publishedConsistencyProofsVerify() {
        for (Vectors.Consistency v : Vectors.CONSISTENCY) {
            assertEquals(new Verified(), verifier.verify(v.first(), v.second(), Vectors.ROOTS.get((int) v.first()),
                    Vectors.ROOTS.get((int) v.second()), v.proof()), v.first() + " to " + v.second());
        }
    }

    @Test
    void naiveProofsVerifyBetweenEverySizeOfTheReferenceTree() {
        for (int n = 1; n <= 8; n++) {
            for (int m = 1; m <= n; m++) {
                List<byte[]> proof = NaiveRfc6962.proof(m, Vectors.LEAVES.subList(0, n));
                assertEquals(new Verified(),
                        verifier.verify(m, n, Vectors.ROOTS.get(m), Vectors.ROOTS.get(n), proof), m + " to " + n);
            }
        }
    }

    @Test
    void randomTreesUpTo300EveryProofVerifiesAndEveryCorruptionFailsForItsReason() {
        long seed = 1_000_003L;
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            int n = 1 + random.nextInt(300);
            Vectors.Built built = Vectors.build(Vectors.entryHashes(random, n + 1));
            MerkleProofs proofs = built.proofs();
            byte[][] roots = new byte[n + 2][];
            for (int s = 0; s <= n + 1; s++) {
                roots[s] = proofs.root(s);
            }
            for (int m = 0; m <= n; m++) {
                String where = "seed " + seed + " " + m + " to " + n;
                List<byte[]> proof = proofs.consistencyProof(m, n);
                assertEquals(ConsistencyVerifier.expectedLength(m, n), proof.size(), where);
                assertEquals(new Verified(), verifier.verify(m, n, roots[m], roots[n], proof), where);
                if (proof.isEmpty()) {
                    continue;
                }
                for (int e = 0; e < proof.size(); e++) {
                    assertInstanceOf(RootMismatch.class,
                            verifier.verify(m, n, roots[m], roots[n], InclusionVerifierTest.flip(proof, e)),
                            where + " flipped proof[" + e + "]");
                }
                assertEquals(new WrongProofLength(proof.size(), proof.size() - 1),
                        verifier.verify(m, n, roots[m], roots[n], proof.subList(0, proof.size() - 1)), where);
                List<byte[]> longer = new ArrayList<>(proof);
                longer.add(0, roots[n]);
                assertEquals(new WrongProofLength(proof.size(), proof.size() + 1),
                        verifier.verify(m, n, roots[m], roots[n], longer), where);
                if (proof.size() >= 2) {
                    assertInstanceOf(RootMismatch.class,
                            verifier.verify(m, n, roots[m], roots[n], InclusionVerifierTest.swap(proof)), where);
                }
                assertEquals(new RootMismatch(Root.SECOND),
                        verifier.verify(m, n, roots[m], roots[n + 1], proof), where + " wrong second root");
                assertInstanceOf(RootMismatch.class, verifier.verify(m, n, roots[n], roots[m], proof),
                        where + " roots swapped");
                // the same proof against the real roots of other sizes, as checkpoints of those sizes would give
                int[][] others = {{m - 1, n}, {m + 1, n}, {m, n + 1}, {m, n - 1}};
                for (int[] o : others) {
                    int a = o[0];
                    int b = o[1];
                    String as = where + " as " + a + " to " + b;
                    ProofCheck got = verifier.verify(a, b, roots[a], roots[b], proof);
                    if (a > b) {
                        assertInstanceOf(SizeOutOfRange.class, got, as);
                    } else if (ConsistencyVerifier.expectedLength(a, b) != proof.size()) {
                        assertEquals(new WrongProofLength(ConsistencyVerifier.expectedLength(a, b), proof.size()),
                                got, as);
                    } else {
                        assertInstanceOf(RootMismatch.class, got, as);
                    }
                }
            }
        }
    }

    @Test
    void trivialSizesNeedAnEmptyProofAndMatchingRoots() {
        byte[] empty = Vectors.ROOTS.get(0);
        byte[] r1 = Vectors.ROOTS.get(1);
        byte[] r2 = Vectors.ROOTS.get(2);
        assertEquals(new Verified(), verifier.verify(0, 0, empty, empty, List.of()));
        assertEquals(new Verified(), verifier.verify(0, 5, empty, r2, List.of()));
        assertEquals(new Verified(), verifier.verify(1, 1, r1, r1, List.of()));
        assertEquals(new RootMismatch(Root.SECOND), verifier.verify(1, 1, r1, r2, List.of()));
        assertEquals(new RootMismatch(Root.FIRST), verifier.verify(0, 1, r1, r1, List.of()));
        assertEquals(new WrongProofLength(0, 1), verifier.verify(1, 1, r1, r1, List.of(r1)));
        assertEquals(new WrongProofLength(0, 1), verifier.verify(0, 1, empty, r1, List.of(r1)));
        assertEquals(new WrongProofLength(1, 0), verifier.verify(1, 2, r1, r2, List.of()));
    }

    @Test
    void sizesOutOfRangeAreNamed() {
        byte[] r = Vectors.ROOTS.get(1);
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(2, 1, r, r, List.of()));
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(-1, 1, r, r, List.of()));
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(1, -1, r, r, List.of()));
        assertInstanceOf(SizeOutOfRange.class, verifier.verify(Long.MIN_VALUE, Long.MAX_VALUE, r, r, List.of()));
    }

    @Test
    void malformedInputIsNamedNotThrown() {
        byte[] r = Vectors.ROOTS.get(1);
        assertInstanceOf(Malformed.class, verifier.verify(1, 2, null, r, List.of(r)));
        assertInstanceOf(Malformed.class, verifier.verify(1, 2, r, new byte[31], List.of(r)));
        assertInstanceOf(Malformed.class, verifier.verify(1, 2, r, r, null));
        assertInstanceOf(Malformed.class, verifier.verify(1, 2, r, r, Arrays.asList((byte[]) null)));
    }

    @Test
    void hugeSizesDoNotThrowOrLoop() {
        byte[] r = Vectors.ROOTS.get(1);
        ProofCheck got = verifier.verify(Long.MAX_VALUE - 1, Long.MAX_VALUE, r, r, List.of(r));
        assertEquals(new WrongProofLength(ConsistencyVerifier.expectedLength(Long.MAX_VALUE - 1, Long.MAX_VALUE), 1),
                got);
    }
}
