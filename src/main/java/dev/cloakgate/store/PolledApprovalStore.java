package dev.cloakgate.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * What every {@link ApprovalStore} does the same way, whatever keeps the receipts: names and sizes are checked, and
 * {@link #await} is served by {@link #put} at once and, for receipts another process (another replica, an operator's
 * command) stores, by polling: one thread per store (started at the first wait), one look per poll interval for all
 * the fingerprints waited for ({@link #fetchAll}), whatever the number of waiters; it stops when nobody waits.
 */
abstract class PolledApprovalStore implements ApprovalStore {
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

    private static final class Waiter {
        final String fingerprint;
        final byte[] seen;
        final CompletableFuture<byte[]> future = new CompletableFuture<>();
        volatile ScheduledFuture<?> timeout;

        Waiter(String fingerprint, byte[] seen) {
            this.fingerprint = fingerprint;
            this.seen = seen;
        }

        /** Hands over {@code receipt} unless it is the one this waiter already has. */
        void offer(byte[] receipt) {
            if (seen == null || !Arrays.equals(seen, receipt)) {
                future.complete(receipt.clone());
            }
        }
    }

    private final long pollMillis;
    private final ScheduledThreadPoolExecutor scheduler;
    /** Guarded by this. */
    private final Map<String, Set<Waiter>> waiters = new HashMap<>();
    /** Guarded by this; null while nobody waits. */
    private ScheduledFuture<?> polling;
    /** Guarded by this. */
    private boolean closed;
    private final String name;

    /** @param name names the store in its poll thread ({@code approvals-poll <name>}) and in messages */
    PolledApprovalStore(String name, Duration poll) {
        if (poll.isNegative() || poll.isZero()) {
            throw new IllegalArgumentException("the poll interval of an approval store must be positive");
        }
        this.name = name;
        this.pollMillis = Math.max(1, poll.toMillis());
        this.scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "approvals-poll " + name);
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
    }

    /** The stored receipt, null when there is none. @throws ApprovalStoreException {@code approval_unreadable} */
    abstract byte[] fetch(String fingerprintHex);

    /** Stores the checked receipt, replacing any earlier one atomically. */
    abstract void store(String fingerprintHex, byte[] receipt);

    /**
     * The receipts of these fingerprints that a waiter may be handed (absent ones left out; an unreadable one too:
     * the gate's find says approval_unreadable when the wait ends, if it is still so). One look each by default.
     */
    Map<String, byte[]> fetchAll(Set<String> fingerprints) {
        Map<String, byte[]> out = new HashMap<>();
        for (String fp : fingerprints) {
            byte[] receipt;
            try {
                receipt = fetch(fp);
            } catch (ApprovalStoreException unreadable) {
                continue;
            }
            if (receipt != null && complete(receipt)) {
                out.put(fp, receipt);
            }
        }
        return out;
    }

    /** Whether a receipt read while a waiter waits is whole (a writer may not write it atomically). */
    boolean complete(byte[] receipt) {
        return true;
    }

    static String checkFingerprint(String fingerprintHex) {
        if (fingerprintHex == null || !FINGERPRINT.matcher(fingerprintHex).matches()) {
            throw new ApprovalStoreException(ApprovalStoreException.FINGERPRINT_INVALID,
                    "a receipt is named by its call's fingerprint: 64 lower-case hex digits");
        }
        return fingerprintHex;
    }

    @Override
    public Optional<byte[]> find(String fingerprintHex) {
        return Optional.ofNullable(fetch(checkFingerprint(fingerprintHex)));
    }

    @Override
    public void put(String fingerprintHex, byte[] envelope) {
        checkFingerprint(fingerprintHex);
        if (envelope == null || envelope.length == 0 || envelope.length > MAX_BYTES) {
            throw new ApprovalStoreException(ApprovalStoreException.TOO_LARGE, "an approval receipt is 1 to " + MAX_BYTES
                    + " bytes, this one is " + (envelope == null ? 0 : envelope.length));
        }
        byte[] copy = envelope.clone();
        store(fingerprintHex, copy);
        for (Waiter w : waitersOf(fingerprintHex)) {
            w.offer(copy);
        }
    }

    @Override
    public CompletableFuture<byte[]> await(String fingerprintHex, Duration max, byte[] seen) {
        checkFingerprint(fingerprintHex);
        Waiter w = new Waiter(fingerprintHex, seen == null ? null : seen.clone());
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("approval store " + name + " is closed");
            }
            waiters.computeIfAbsent(fingerprintHex, k -> new LinkedHashSet<>()).add(w);
            if (polling == null) {
                polling = scheduler.scheduleWithFixedDelay(this::poll, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
            }
            w.timeout = scheduler.schedule(() -> w.future.complete(null), Math.max(0, max.toNanos()), TimeUnit.NANOSECONDS);
        }
        // registered first, then looked: a receipt stored in between is either offered by put or seen here
        try {
            scheduler.execute(() -> offer(Map.of(fingerprintHex, List.of(w))));
        } catch (RejectedExecutionException closing) {
            // closed meanwhile: close completed this waiter with null
        }
        w.future.whenComplete((receipt, failure) -> forget(w));
        return w.future;
    }

    private synchronized void forget(Waiter w) {
        ScheduledFuture<?> t = w.timeout;
        if (t != null) {
            t.cancel(false);
        }
        Set<Waiter> same = waiters.get(w.fingerprint);
        if (same != null && same.remove(w) && same.isEmpty()) {
            waiters.remove(w.fingerprint);
        }
        if (waiters.isEmpty() && polling != null) {
            polling.cancel(false);
            polling = null;
        }
    }

    private synchronized List<Waiter> waitersOf(String fingerprint) {
        Set<Waiter> same = waiters.get(fingerprint);
        return same == null ? List.of() : new ArrayList<>(same);
    }

    private void poll() {
        Map<String, List<Waiter>> now;
        synchronized (this) {
            now = new HashMap<>();
            waiters.forEach((fp, ws) -> now.put(fp, new ArrayList<>(ws)));
        }
        offer(now);
    }

    /** Hands each waiter the receipt of its fingerprint, once one is stored whole. */
    private void offer(Map<String, List<Waiter>> ws) {
        Map<String, byte[]> found;
        try {
            found = fetchAll(ws.keySet());
        } catch (StoreException e) {
            return; // the storage did not answer this time: the next poll looks again
        }
        found.forEach((fp, receipt) -> ws.getOrDefault(fp, List.of()).forEach(w -> w.offer(receipt)));
    }

    /** How many waits are open (for tests). */
    synchronized int waiting() {
        return waiters.values().stream().mapToInt(Set::size).sum();
    }

    /** Whether the poll task is scheduled (for tests). */
    synchronized boolean polling() {
        return polling != null;
    }

    @Override
    public void close() {
        List<Waiter> all = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            waiters.values().forEach(all::addAll);
        }
        for (Waiter w : all) {
            w.future.complete(null);
        }
        scheduler.shutdownNow();
    }
}
