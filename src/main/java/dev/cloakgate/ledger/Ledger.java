package dev.cloakgate.ledger;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.NoteSigner;

/**
 * One tenant's open ledger: the store, verified from seq 0 on open ({@link LedgerReplay}), a group-commit writer,
 * and signed checkpoints of its Merkle tree ({@link LedgerCheckpointer}) under its origin ({@link LedgerOrigin}) and
 * its own keys ({@link LogKeys}).
 *
 * <p>On open, a ledger last checkpointed under another key gets a {@code key_rotated} entry ({@link KeyRotation})
 * and a checkpoint under the new key, so the change of key is itself on the record; entries past the latest
 * checkpoint (a crash) are checkpointed at once. Closing writes what was submitted and a final checkpoint.
 */
public final class Ledger implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(Ledger.class);
    /** Issue 17: a development key on a log the replicas share. */
    public static final String KEY_NOT_SHARED = "ledger_key_not_shared";

    /**
     * @param checkpointEvery a checkpoint at least every this many entries
     * @param checkpointInterval a checkpoint once this long has passed with entries not yet covered
     * @param clock entry timestamps and checkpoint timing
     * @param appended told each entry's time from submit to commit, in nanoseconds (the append latency metric)
     * @param devKey issue 17: the signing key was generated under this process's data dir (dev mode), so on a log shared
     *        by replicas it is this replica's alone
     */
    public record Settings(int checkpointEvery, Duration checkpointInterval, Clock clock, int queueCapacity, int maxBatch,
            LongConsumer appended, boolean devKey) {
        public static final int DEFAULT_CHECKPOINT_EVERY = 1000;
        public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

        public Settings {
            Objects.requireNonNull(checkpointInterval, "checkpointInterval");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(appended, "appended");
            if (checkpointEvery < 1 || queueCapacity < 1 || maxBatch < 1) {
                throw new IllegalArgumentException("checkpointEvery, queueCapacity and maxBatch must be positive");
            }
            if (checkpointInterval.isNegative() || checkpointInterval.isZero()) {
                throw new IllegalArgumentException("checkpointInterval must be positive");
            }
        }

        public static Settings defaults() {
            return new Settings(DEFAULT_CHECKPOINT_EVERY, DEFAULT_CHECKPOINT_INTERVAL, Clock.systemUTC(),
                    LedgerWriter.DEFAULT_QUEUE, LedgerWriter.DEFAULT_MAX_BATCH, nanos -> {
                    }, false);
        }

        public Settings withCheckpointEvery(int n) {
            return new Settings(n, checkpointInterval, clock, queueCapacity, maxBatch, appended, devKey);
        }

        public Settings withCheckpointInterval(Duration d) {
            return new Settings(checkpointEvery, d, clock, queueCapacity, maxBatch, appended, devKey);
        }

        public Settings withClock(Clock c) {
            return new Settings(checkpointEvery, checkpointInterval, c, queueCapacity, maxBatch, appended, devKey);
        }

        public Settings withDevKey(boolean dev) {
            return new Settings(checkpointEvery, checkpointInterval, clock, queueCapacity, maxBatch, appended, dev);
        }

        public Settings withAppendObserver(LongConsumer observer) {
            return new Settings(checkpointEvery, checkpointInterval, clock, queueCapacity, maxBatch, observer, devKey);
        }
    }

    private final LedgerStore store;
    private final LogKeys keys;
    private final LedgerCheckpointer checkpointer;
    private final LedgerWriter writer;
    // futures not yet complete, for flush(): with many submitting threads there is no single "last" one
    private final Set<CompletableFuture<Long>> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LongConsumer appended;

    private Ledger(LedgerStore store, LogKeys keys, LedgerCheckpointer checkpointer, Settings settings) {
        this.store = store;
        this.keys = keys;
        this.checkpointer = checkpointer;
        this.appended = settings.appended();
        this.writer = new LedgerWriter(store, settings.maxBatch(), settings.queueCapacity(),
                LedgerWriter.DEFAULT_OFFER_TIMEOUT_MILLIS, checkpointer);
    }

    public static Ledger open(Path dataDir, String tenant, LedgerKeyring keyring) {
        return open(dataDir, tenant, keyring, Settings.defaults());
    }

    /**
     * @throws LedgerLockedException when another gateway holds the ledger
     * @throws LedgerStoreException when it cannot be opened or is damaged (the message names tenant, seq and kind),
     *         or when the log identity contradicts its stored origin ({@value LedgerOrigin#MISMATCH})
     */
    public static Ledger open(Path dataDir, String tenant, LedgerKeyring keyring, Settings settings) {
        return open(LedgerStore.open(dataDir, tenant, settings.clock()), keyring, settings);
    }

    /**
     * Issue 17: the ledger kept in {@code store}, which this ledger owns from here (closed with it, or when the open
     * fails). On a shared store ({@link PostgresLedgerStore}) other replicas append to the same log meanwhile.
     *
     * @throws LedgerStoreException as above, and {@value #KEY_NOT_SHARED} for a development key on a shared log that
     *         another key signs
     */
    public static Ledger open(LedgerStore store, LedgerKeyring keyring, Settings settings) {
        String tenant = store.tenant();
        try {
            LedgerOrigin resolved = LedgerOrigin.resolve(tenant, store.storedOrigin(), store.size() > 0, keyring.identity());
            String origin = resolved.origin();
            store.storeOrigin(origin);
            if (resolved.legacy()) {
                LOG.warnf("ledger %s: created before log identities, it keeps the origin %s (a name every deployment's"
                        + " tenant %s shares; a new ledger gets %s)", tenant, origin, tenant, keyring.identity().origin(tenant));
            }
            LogKeys keys = keyring.keys(origin);
            List<NoteSigner> held = keyring.predecessors(origin);
            LedgerReplay.Outcome replayed = LedgerReplay.replay(store, origin, keys.checkpoint().verifier(),
                    held.stream().map(NoteSigner::verifier).toList());
            LedgerReplay.Latest latest = replayed.latest();
            LedgerCheckpointer checkpointer = new LedgerCheckpointer(store, origin, keys.checkpoint(), replayed.tree(),
                    latest == null ? null : latest.checkpoint(), settings.checkpointEvery(), settings.checkpointInterval(),
                    settings.clock());
            LOG.infof("ledger %s: verified %d entries and %d checkpoints", tenant, store.size(), replayed.checkpoints());
            // what an auditor pins for this log: ledger verify FILE --tenant T --trust-key <checkpoint> --trust-key <manifest>
            LOG.infof("ledger %s: origin %s, checkpoint key %s, manifest key %s", tenant, origin,
                    keys.checkpoint().verifier().encoded(), keys.manifest().verifier().encoded());
            if (latest != null && !latest.signedBy().equals(keys.checkpoint().keyId())) {
                if (store.shared() && settings.devKey()) {
                    // each replica's dev key is its own: continuing would make the log's signer flip with every start
                    throw new LedgerStoreException(KEY_NOT_SHARED + ": the ledger of tenant " + tenant + " is shared by the"
                            + " replicas and signed by key " + latest.signedBy().hex() + ", but this process signs with a"
                            + " development key generated under its own data dir. Mount the same signing key on every"
                            + " replica (" + SigningKeys.FILE_PROPERTY + " or env " + SigningKeys.ENV + ", from one Secret)");
                }
                rotated(tenant, store, checkpointer, latest, keys, held);
            }
            long covered = latest == null ? 0 : latest.checkpoint().size();
            if (store.size() > covered) {
                Checkpoint c = checkpointer.checkpointNow();
                LOG.infof("ledger %s: checkpoint at size %d on open (entries past the last checkpoint: %d)", tenant, c.size(),
                        c.size() - covered);
            }
            return new Ledger(store, keys, checkpointer, settings);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * The latest checkpoint is another key's: records {@code key_rotated} with the new verifier keys. When this
     * gateway holds the key that signed it (the legacy single key of the same seed, or the configured previous key),
     * that key endorses the new ones in the entry and co-signs the next checkpoint, so trust in the old key carries
     * over ({@link KeyRotation}).
     */
    private static void rotated(String tenant, LedgerStore store, LedgerCheckpointer checkpointer, LedgerReplay.Latest latest,
            LogKeys keys, List<NoteSigner> held) {
        NoteSigner endorser = latest.verified() ? held.stream()
                .filter(s -> s.keyId().equals(latest.signedBy()) && s.name().equals(latest.keyName()))
                .findFirst().orElse(null) : null;
        ObjectNode entry = KeyRotation.entry(latest.signedBy(), latest.keyName(), keys, endorser);
        // issue 17: on a shared log every replica may start under the new key; the store records the rotation once
        List<LedgerStore.Appended> done = store.appendRotation(entry, keys.checkpoint().keyId().hex());
        if (done.isEmpty()) {
            LOG.infof("ledger %s: the change of signing key to %s %s is already recorded (by another replica)", tenant,
                    keys.checkpoint().name(), keys.checkpoint().keyId().hex());
            return;
        }
        checkpointer.appended(done);
        if (endorser != null) {
            checkpointer.coSignNext(endorser);
        }
        LOG.warnf("ledger %s: signing key changed from %s %s to %s %s; recorded at seq %d, %s", tenant, latest.keyName(),
                latest.signedBy().hex(), keys.checkpoint().name(), keys.checkpoint().keyId().hex(), done.get(0).seq(),
                endorser != null ? "endorsed and co-signed by the old key (auditors who pinned it follow the rotation)"
                        : "without endorsement (the old key is not at hand: set " + SigningKeys.PREVIOUS_FILE_PROPERTY
                                + " for the start after a rotation, or have auditors pin both keys)");
    }

    /**
     * Queues an entry body ({@code kind} and that kind's fields); the future completes with its seq once committed,
     * or fails when it was not recorded (queue full, ledger closed, a body with no canonical form).
     */
    public CompletableFuture<Long> submit(ObjectNode body) {
        long t0 = System.nanoTime();
        CompletableFuture<Long> f = writer.submit(body);
        if (!f.isDone()) {
            inFlight.add(f);
            f.whenComplete((seq, failure) -> inFlight.remove(f));
        }
        // also when already done: the writer may commit before this line
        f.whenComplete((seq, failure) -> {
            if (failure == null) {
                appended.accept(System.nanoTime() - t0);
            }
        });
        return f;
    }

    /**
     * How long the oldest committed entry not yet covered by a signed checkpoint has waited: 0 when the latest
     * checkpoint covers every entry. Healthy, it stays under the checkpoint interval; growing, signing or storing
     * checkpoints is failing.
     */
    public Duration checkpointAge() {
        return checkpointer.uncoveredAge();
    }

    /**
     * {@link #submit} for callers that do not wait: false when the entry could not be queued (queue full, ledger
     * closed). A queued entry that later fails is logged by its exception type only, not its content.
     */
    public boolean offer(ObjectNode body) {
        CompletableFuture<Long> f = submit(body);
        if (f.isCompletedExceptionally() && rejected(f)) {
            return false;
        }
        f.whenComplete((seq, failure) -> {
            if (failure != null) {
                LOG.warnf("ledger %s: an offered entry was not recorded (%s)", tenant(), failure.getClass().getSimpleName());
            }
        });
        return true;
    }

    private static boolean rejected(CompletableFuture<Long> f) {
        try {
            f.join();
            return false;
        } catch (CompletionException e) {
            return e.getCause() instanceof RejectedExecutionException;
        }
    }

    /** Waits until every entry submitted before this call is committed (or failed) and in the tree. */
    public void flush() {
        for (CompletableFuture<Long> f : new ArrayList<>(inFlight)) {
            f.handle((seq, failure) -> null).join();
        }
    }

    /**
     * Signs and stores a checkpoint of every committed entry and returns it; when nothing is new since the latest,
     * returns that one. On an empty ledger, the (unstored) checkpoint of the empty tree.
     */
    public Checkpoint checkpointNow() {
        return checkpointer.checkpointNow();
    }

    /** For reads (exports, proofs): appending through it would bypass the tree and checkpoints. */
    public LedgerStore store() {
        return store;
    }

    public String tenant() {
        return store.tenant();
    }

    /** The log's checkpoint origin, fixed when the ledger was created. */
    public String origin() {
        return keys.origin();
    }

    /** This log's checkpoint and manifest keys. */
    public LogKeys keys() {
        return keys;
    }

    /** Entries committed. */
    public long size() {
        return store.size();
    }

    // ---- issue 15, witness cosigning ----
    private volatile CheckpointWitness witness = CheckpointWitness.NONE;

    /**
     * Sends each checkpoint stored from now on (and the latest one, at once) to {@code w}, which has them cosigned
     * asynchronously; closed with the ledger.
     */
    public void witnessWith(CheckpointWitness w) {
        witness = w;
        if (w != CheckpointWitness.NONE) {
            // what each witness must be configured with to accept this log's checkpoints
            LOG.infof("ledger %s: checkpoints go to the witnesses, who must know origin %s and verifier key %s", tenant(),
                    keys.origin(), keys.checkpoint().verifier().encoded());
        }
        checkpointer.witnessWith(w);
    }

    /** Waits up to {@code max} for the witnesses to answer for the checkpoints handed to them; true when done. */
    public boolean awaitWitnesses(Duration max) {
        return witness.awaitIdle(max);
    }
    // ---- end issue 15 ----

    /** Writes everything submitted, checkpoints what the last checkpoint does not cover, closes the store. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            writer.close();
            Checkpoint c = checkpointer.checkpointNow();
            LOG.infof("ledger %s: closed at size %d", tenant(), c.size());
        } finally {
            witness.close(); // issue 15: the next start sends the final checkpoint to the witnesses
            store.close();
        }
    }
}
