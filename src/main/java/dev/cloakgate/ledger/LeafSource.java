package dev.cloakgate.ledger;

/**
 * The ledger's stored leaf hashes, in append order. Leaf hash i is MTH({entry hash i}) = SHA-256(0x00 || entry
 * hash), already computed, so proofs never re-hash leaf data.
 *
 * <p>Append-only is part of the contract: once leaf i exists it never changes. {@link MerkleProofs} memoises
 * subtree hashes on that promise.
 */
public interface LeafSource {

    /** Number of leaves stored. */
    long size();

    /** Leaf hash {@code index} (32 bytes), for {@code 0 <= index < size()}. */
    byte[] leafHash(long index);
}
