package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Group commit in front of a {@link LedgerStore}: callers {@link #submit} entry bodies and go on; one background
 * thread takes up to {@code maxBatch} pending bodies at a time and appends them in ONE transaction (one fsync),
 * then completes each caller's future with its seq. So the ledger is off a call's critical path and the fsync cost
 * is shared by every entry that arrived meanwhile.
 *
 * <p><b>Back-pressure.</b> The queue is bounded. When it is full, {@code submit} waits up to {@code offerTimeout}
 * for room and then fails the returned future with a {@link RejectedExecutionException} (the entry is NOT
 * recorded; the caller decides whether that blocks the call). A submit after {@link #close} fails the same way.
 *
 * <p><b>Failures.</b> If a batch's transaction fails, nothing of it is stored; the writer then retries its bodies
 * one at a time so that one bad body (say, a number with no JSON form) fails only its own future.
 *
 * <p>The writer does not own the store: {@link #close} flushes and stops the thread, the caller closes the store.
 */
public final class LedgerWriter implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LedgerWriter.class);
    public static final int DEFAULT_MAX_BATCH = 512;
    public static final int DEFAULT_QUEUE = 16_384;
    public static final long DEFAULT_OFFER_TIMEOUT_MILLIS = 100;

    private record Pending(ObjectNode body, CompletableFuture<Long> seq) {
    }

    /**
     * Runs on the writer thread, so it sees every entry in order and may use the store without racing an append:
     * the ledger's Merkle tree and checkpoints hang off this.
     */
    public interface Listener {
        /** A batch was committed, in seq order. */
        void appended(List<LedgerStore.Appended> batch);

        /** Nothing arrived for a while (about 50 ms) or the writer is about to stop. */
        void idle();

        Listener NONE = new Listener() {
            @Override
            public void appended(List<LedgerStore.Appended> batch) {
            }

            @Override
            public void idle() {
            }
        };
    }

    private final LedgerStore store;
    private final Listener listener;
    private final int maxBatch;
    private final long offerTimeoutMillis;
    private final BlockingQueue<Pending> queue;
    private final Thread thread;
    private volatile boolean closed;

    public LedgerWriter(LedgerStore store) {
        this(store, DEFAULT_MAX_BATCH, DEFAULT_QUEUE, DEFAULT_OFFER_TIMEOUT_MILLIS);
    }

    public LedgerWriter(LedgerStore store, int maxBatch, int queueCapacity, long offerTimeoutMillis) {
        this(store, maxBatch, queueCapacity, offerTimeoutMillis, Listener.NONE);
    }

    public LedgerWriter(LedgerStore store, int maxBatch, int queueCapacity, long offerTimeoutMillis, Listener listener) {
        if (maxBatch < 1 || queueCapacity < 1 || offerTimeoutMillis < 0) {
            throw new IllegalArgumentException("maxBatch and queueCapacity must be positive, offerTimeoutMillis not negative");
        }
        this.store = store;
        this.listener = listener;
        this.maxBatch = maxBatch;
        this.offerTimeoutMillis = offerTimeoutMillis;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.thread = new Thread(this::run, "ledger-writer-" + store.tenant());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues a body (its kind's fields plus {@code kind}); the future completes with its seq once committed. */
    public CompletableFuture<Long> submit(ObjectNode body) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        if (closed) {
            f.completeExceptionally(new RejectedExecutionException("ledger writer of " + store.tenant() + " is closed"));
            return f;
        }
        Pending p = new Pending(body, f);
        boolean queued;
        try {
            queued = queue.offer(p, offerTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            queued = false;
        }
        if (!queued) {
            f.completeExceptionally(new RejectedExecutionException("ledger queue of " + store.tenant() + " is full ("
                    + queue.size() + " pending); entry not recorded"));
        } else if (closed && queue.remove(p)) {
            // close() raced us and may already have flushed; whoever removes the entry owns it
            f.completeExceptionally(new RejectedExecutionException("ledger writer of " + store.tenant() + " is closed"));
        }
        return f;
    }

    private void run() {
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (true) {
            Pending first;
            try {
                first = queue.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                first = null;
            }
            if (first == null) {
                if (closed && queue.isEmpty()) {
                    return;
                }
                idle();
                continue;
            }
            batch.add(first);
            queue.drainTo(batch, maxBatch - 1);
            write(batch);
            batch.clear();
        }
    }

    private void idle() {
        try {
            listener.idle();
        } catch (RuntimeException e) {
            LOG.warnf("ledger %s: idle work failed: %s", store.tenant(), e.getMessage());
        }
    }

    private void write(List<Pending> batch) {
        List<ObjectNode> bodies = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            bodies.add(p.body());
        }
        try {
            List<LedgerStore.Appended> done = store.append(bodies);
            appended(done);
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).seq().complete(done.get(i).seq());
            }
        } catch (RuntimeException batchFailure) {
            if (batch.size() == 1) {
                batch.get(0).seq().completeExceptionally(batchFailure);
                return;
            }
            for (Pending p : batch) {
                try {
                    List<LedgerStore.Appended> one = store.append(List.of(p.body()));
                    appended(one);
                    p.seq().complete(one.get(0).seq());
                } catch (RuntimeException e) {
                    p.seq().completeExceptionally(e);
                }
            }
        }
    }

    private void appended(List<LedgerStore.Appended> done) {
        try {
            listener.appended(done);
        } catch (RuntimeException e) {
            // the entries are committed; a failing listener (a checkpoint that could not be stored) must not
            // turn them into failures for their callers
            LOG.warnf("ledger %s: after-append work failed: %s", store.tenant(), e.getMessage());
        }
    }

    /** Number of bodies waiting for the writer thread. */
    public int pending() {
        return queue.size();
    }

    /** Writes everything submitted so far, then stops the writer thread. The store stays open. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // the thread is still flushing; it stops once the queue is empty
        }
        // submits that raced close(): the thread is gone, so this is the only writer now
        List<Pending> rest = new ArrayList<>();
        while (queue.drainTo(rest, maxBatch) > 0) {
            write(rest);
            rest.clear();
        }
        idle();
    }
}
