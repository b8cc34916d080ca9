package dev.cloakgate.ledger;

import java.util.List;

import dev.cloakgate.ledger.ProofCheck.Malformed;

/** The shape check both verifiers make on a proof before walking it. */
final class ProofElements {

    private ProofElements() {
    }

    /** A {@link Malformed} naming the first element that is not a hash, or null when every element is one. */
    static ProofCheck malformed(List<byte[]> proof) {
        if (proof == null) {
            return new Malformed("proof is missing");
        }
        int i = 0;
        for (byte[] element : proof) {
            if (!TreeHasher.isHash(element)) {
                return new Malformed("proof[" + i + "] is not 32 bytes");
            }
            i++;
        }
        return null;
    }
}
