package dev.cloakgate.ledger;

/**
 * What checking an inclusion or consistency proof found. Verifiers return one of these for any input, bad or
 * good, and never throw: a proof arrives from outside and a bad one is an answer, not an accident.
 */
public sealed interface ProofCheck {

    default boolean verified() {
        return this instanceof Verified;
    }

    /** The proof holds. */
    record Verified() implements ProofCheck {
    }

    /** A size or index that no proof could cover: negative, a leaf index at or past the tree size, first > second. */
    record SizeOutOfRange(String detail) implements ProofCheck {
    }

    /** An input that is not a hash: missing, or not 32 bytes (a root, the leaf hash, a proof element). */
    record Malformed(String detail) implements ProofCheck {
    }

    /**
     * The proof has the wrong number of hashes for the sizes claimed. The count follows from the sizes alone, so
     * this is told apart from a wrong hash.
     */
    record WrongProofLength(int expected, int actual) implements ProofCheck {
    }

    /** The proof is well formed but the hashes do not lead to the root claimed. */
    record RootMismatch(Root root) implements ProofCheck {
    }

    /** Which root a proof failed to reach. */
    enum Root {
        /** the tree's root, for an inclusion proof */
        TREE,
        /** the older tree's root, for a consistency proof */
        FIRST,
        /** the newer tree's root, for a consistency proof */
        SECOND
    }
}
