package dev.cloakgate.ledger.witness;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cloakgate.ledger.CheckpointWitness;
import dev.cloakgate.ledger.LedgerStore;

/**
 * The gateway's witnesses and what they share across every tenant's ledger: one HTTP client and a small pool of
 * threads that send checkpoints ({@link WitnessCosigner} per ledger). Closed after the ledgers.
 */
public final class Witnessing implements AutoCloseable {
    /** Attempts per checkpoint and witness when the witness cannot be reached; a later checkpoint starts afresh. */
    public static final int ATTEMPTS = 3;
    private static final int THREADS = 2;

    private final List<WitnessEndpoint> witnesses;
    private final AddCheckpoint client;
    private final Duration backoff;
    private final ScheduledThreadPoolExecutor pool;

    /**
     * @param timeout for connecting and for each answer
     * @param backoff before the second attempt; doubled before each later one
     */
    public Witnessing(List<WitnessEndpoint> witnesses, Duration timeout, Duration backoff) {
        this.witnesses = List.copyOf(witnesses);
        this.backoff = backoff;
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        this.client = new AddCheckpoint(http, timeout);
        AtomicInteger n = new AtomicInteger();
        this.pool = new ScheduledThreadPoolExecutor(THREADS, r -> {
            Thread t = new Thread(r, "ledger-witness-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.setRemoveOnCancelPolicy(true);
    }

    public List<WitnessEndpoint> witnesses() {
        return witnesses;
    }

    /** What sends {@code store}'s checkpoints to the witnesses; {@link CheckpointWitness#NONE} when none is configured. */
    public CheckpointWitness cosigner(LedgerStore store) {
        return witnesses.isEmpty() ? CheckpointWitness.NONE : new WitnessCosigner(store, witnesses, client, pool, backoff);
    }

    ScheduledExecutorService pool() {
        return pool;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
