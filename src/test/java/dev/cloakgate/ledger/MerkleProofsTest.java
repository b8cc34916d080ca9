package dev.cloakgate.ledger;

import static dev.cloakgate.ledger.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class MerkleProofsTest {

    private static final Vectors.Built REFERENCE = Vectors.build(Vectors.LEAVES);

    @Test
    void rootsOfEarlierSizesMatchThePublishedVectors() {
        for (int n = 0; n <= 8; n++) {
            assertEquals(hex(Vectors.ROOTS.get(n)), hex(REFERENCE.proofs().root(n)), "size " + n);
        }
    }

    @Test
    void publishedAuditPathsAreReproduced() {
        for (Vectors.Inclusion v : Vectors.INCLUSION) {
            assertEquals(hex(v.path()), hex(REFERENCE.proofs().inclusionProof(v.index(), v.size())),
                    "leaf " + v.index() + " of " + v.size());
        }
    }

    @Test
    void publishedConsistencyProofsAreReproduced() {
        for (Vectors.Consistency v : Vectors.CONSISTENCY) {
            assertEquals(hex(v.proof()), hex(REFERENCE.proofs().consistencyProof(v.first(), v.second())),
                    v.first() + " to " + v.second());
        }
    }

    @Test
    void everyProofOverTheReferenceLeavesEqualsTheNaiveTranscription() {
        for (int n = 1; n <= 8; n++) {
            List<byte[]> d = Vectors.LEAVES.subList(0, n);
            for (int i = 0; i < n; i++) {
                assertEquals(hex(NaiveRfc6962.path(i, d)), hex(REFERENCE.proofs().inclusionProof(i, n)),
                        "PATH(" + i + ", D[" + n + "])");
            }
            for (int m = 1; m <= n; m++) {
                assertEquals(hex(NaiveRfc6962.proof(m, d)), hex(REFERENCE.proofs().consistencyProof(m, n)),
                        "PROOF(" + m + ", D[" + n + "])");
            }
        }
    }

    @Test
    void randomTreesUpTo300LeavesMatchTheNaiveTranscription() {
        long seed = 20260414L;
        Random random = new Random(seed);
        for (int round = 0; round < 12; round++) {
            int n = 1 + random.nextInt(300);
            List<byte[]> d = Vectors.entryHashes(random, n);
            Vectors.Built built = Vectors.build(d);
            for (int m = 0; m <= n; m++) {
                assertEquals(hex(NaiveRfc6962.mth(d.subList(0, m))), hex(built.proofs().root(m)));
                if (m > 0) {
                    assertEquals(hex(NaiveRfc6962.proof(m, d)), hex(built.proofs().consistencyProof(m, n)),
                            "seed " + seed + " PROOF(" + m + ", D[" + n + "])");
                }
            }
            for (int i = 0; i < n; i++) {
                assertEquals(hex(NaiveRfc6962.path(i, d)), hex(built.proofs().inclusionProof(i, n)),
                        "seed " + seed + " PATH(" + i + ", D[" + n + "])");
            }
        }
    }

    @Test
    void memoisedSubtreesGiveTheSameAnswersAsFreshOnes() {
        List<byte[]> d = Vectors.entryHashes(new Random(7), 2_000);
        Vectors.Built built = Vectors.build(d);
        List<String> warm = hex(built.proofs().consistencyProof(700, 2_000));
        // a second request is served from the memo; a fresh instance recomputes everything
        assertEquals(warm, hex(built.proofs().consistencyProof(700, 2_000)));
        assertEquals(warm, hex(new MerkleProofs(built.leaves()).consistencyProof(700, 2_000)));
        assertEquals(hex(NaiveRfc6962.proof(700, d)), warm);
        assertEquals(hex(NaiveRfc6962.path(1_999, d)), hex(built.proofs().inclusionProof(1_999, 2_000)));
    }

    @Test
    void proofsAreCopiesTheCallerCannotUseToCorruptTheMemo() {
        Vectors.Built built = Vectors.build(Vectors.entryHashes(new Random(8), 600));
        List<byte[]> proof = built.proofs().consistencyProof(300, 600);
        String before = hex(proof.get(proof.size() - 1));
        proof.get(proof.size() - 1)[0] ^= 1;
        List<byte[]> again = built.proofs().consistencyProof(300, 600);
        assertEquals(before, hex(again.get(again.size() - 1)));
        assertTrue(new ConsistencyVerifier()
                .verify(300, 600, built.proofs().root(300), built.tree().root(), again).verified());
    }

    @Test
    void requestsOutsideTheStoredLeavesAreRefused() {
        MerkleProofs proofs = REFERENCE.proofs();
        assertThrows(IllegalArgumentException.class, () -> proofs.root(9));
        assertThrows(IllegalArgumentException.class, () -> proofs.root(-1));
        assertThrows(IllegalArgumentException.class, () -> proofs.inclusionProof(8, 8));
        assertThrows(IllegalArgumentException.class, () -> proofs.inclusionProof(0, 0));
        assertThrows(IllegalArgumentException.class, () -> proofs.consistencyProof(5, 4));
        assertThrows(IllegalArgumentException.class, () -> proofs.consistencyProof(1, 9));
        assertEquals(List.of(), proofs.consistencyProof(0, 8));
        assertEquals(List.of(), proofs.consistencyProof(8, 8));
    }
}
