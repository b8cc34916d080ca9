package dev.cloakgate.store;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Approval receipts (DSSE envelopes, seed "Signed approval receipts") by the fingerprint of the call they approve.
 * The store keeps bytes; whether a receipt is valid is the gate's question, asked of every receipt it is given.
 *
 * <p>Implementations: {@link DirectoryApprovalStore} (a directory of {@code <fingerprint-hex>.approval.json}).
 */
public interface ApprovalStore extends AutoCloseable {
    /** The largest receipt kept or read: a receipt is a few hundred bytes; anything near this is not one. */
    int MAX_BYTES = 64 * 1024;

    /**
     * The receipt for this fingerprint (64 lower-case hex digits), or empty when there is none.
     *
     * @throws ApprovalStoreException {@code fingerprint_invalid} for any other name; {@code approval_unreadable}
     *                                when a receipt is there but cannot be read whole (over {@link #MAX_BYTES},
     *                                not a regular file, an I/O error)
     */
    Optional<byte[]> find(String fingerprintHex);

    /**
     * Stores the receipt for this fingerprint, replacing any earlier one, atomically (a reader sees the old or
     * the new receipt whole), and releases the calls waiting for it in this process at once.
     *
     * @throws ApprovalStoreException {@code fingerprint_invalid}, {@code approval_too_large}
     */
    void put(String fingerprintHex, byte[] envelope);

    /**
     * Waits for a receipt for this fingerprint that is not {@code seen} (the bytes the caller already found and
     * rejected, or null): the future completes with the receipt as soon as one is stored by {@link #put} or
     * written into the store by another process, or with {@code null} when {@code max} has passed. Cancelling the
     * future ends the wait and its polling. It completes on the store's poll thread or the thread of a
     * {@link #put}: continue with an async stage ({@code thenAcceptAsync(..., executor)}), not on that thread.
     */
    CompletableFuture<byte[]> await(String fingerprintHex, Duration max, byte[] seen);

    /** {@link #await(String, Duration, byte[])} for any receipt, including one already there. */
    default CompletableFuture<byte[]> await(String fingerprintHex, Duration max) {
        return await(fingerprintHex, max, null);
    }

    /** Ends every wait (each completes with null) and stops polling. */
    @Override
    void close();
}
