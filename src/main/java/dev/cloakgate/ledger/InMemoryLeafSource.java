package dev.cloakgate.ledger;

import java.util.Arrays;

/**
 * Leaf hashes held in memory, packed into one array (32 bytes a leaf, so 1,000,000 leaves take 32 MB and no
 * per-leaf objects). Holds up to 2^26 leaves, the most a single Java array allows at 32 bytes each. Not
 * thread-safe.
 */
public final class InMemoryLeafSource implements LeafSource {

    private static final int H = TreeHasher.HASH_SIZE;
    private static final long MAX_LEAVES = Integer.MAX_VALUE / H;

    private byte[] packed = new byte[H * 1024];
    private long size;

    /** Stores the next leaf hash; {@code leafHash} must be 32 bytes. */
    public void add(byte[] leafHash) {
        if (!TreeHasher.isHash(leafHash)) {
            throw new IllegalArgumentException("a leaf hash is 32 bytes");
        }
        if (size == MAX_LEAVES) {
            throw new IllegalStateException("in-memory leaf source is full at " + MAX_LEAVES + " leaves");
        }
        int offset = (int) size * H;
        if (offset == packed.length) {
            packed = Arrays.copyOf(packed, (int) Math.min((long) packed.length * 2, MAX_LEAVES * H));
        }
        System.arraycopy(leafHash, 0, packed, offset, H);
        size++;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public byte[] leafHash(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("leaf " + index + " of " + size);
        }
        int offset = (int) index * H;
        return Arrays.copyOfRange(packed, offset, offset + H);
    }
}
