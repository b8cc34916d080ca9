package dev.cloakgate.ledger.witness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.WitnessKey;
import dev.cloakgate.ledger.CheckpointWitness;
import dev.cloakgate.ledger.FrontierProofs;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.ledger.LedgerStore.WitnessState;
import dev.cloakgate.ledger.MerkleTree;
import dev.cloakgate.ledger.TreeHasher;

/**
 * Has one ledger's checkpoints cosigned by each configured witness (C2SP tlog-witness), off the writer's thread.
 *
 * <p>Per witness, one lane: at most one request in flight, and of the checkpoints waiting only the newest is sent
 * (a witness keeps only its latest; cosigning the newest covers the older ones). The request carries a consistency
 * proof from the size the witness last cosigned, kept in the ledger's store with the tree's frontier there. A 409
 * tells the witness's real size (it restarted, or learned the log elsewhere): the lane records it and retries once
 * with the proof from there. A witness that cannot be reached gets {@value Witnessing#ATTEMPTS} attempts with
 * doubling backoff, then the lane waits for the next checkpoint. A cosignature that verifies under the pinned key
 * is added to the stored checkpoint's note, so exports carry it. Nothing here fails or slows the ledger; failures
 * are logged by witness, status and count, never with the checkpoint or the answer.
 */
final class WitnessCosigner implements CheckpointWitness {
    private static final Logger LOG = Logger.getLogger(WitnessCosigner.class);
    private static final int HASH_BATCH = 1 << 16;

    private final LedgerStore store;
    private final List<Lane> lanes = new ArrayList<>();
    private final AddCheckpoint client;
    private final ScheduledExecutorService pool;
    private final Duration backoff;
    private final Object monitor = new Object();

    WitnessCosigner(LedgerStore store, List<WitnessEndpoint> witnesses, AddCheckpoint client, ScheduledExecutorService pool,
            Duration backoff) {
        this.store = store;
        this.client = client;
        this.pool = pool;
        this.backoff = backoff;
        for (WitnessEndpoint w : witnesses) {
            lanes.add(new Lane(w));
        }
    }

    @Override
    public void signed(Signed checkpoint) {
        for (Lane lane : lanes) {
            lane.offer(checkpoint);
        }
    }

    @Override
    public boolean awaitIdle(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (monitor) {
            while (!lanes.stream().allMatch(Lane::idle)) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                try {
                    monitor.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    public void close() {
        lanes.forEach(Lane::close);
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    private void changed() {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    private enum Result {
        DONE, RETRY
    }

    /** One witness's requests for this ledger, one at a time. */
    private final class Lane {
        private final WitnessEndpoint witness;
        private final Object lock = new Object();
        private Signed pending;
        private boolean busy;
        private boolean closed;
        private int failures; // in a row, for the log
        private WitnessState state; // loaded on first use; only the lane's one running task touches it

        Lane(WitnessEndpoint witness) {
            this.witness = witness;
        }

        void offer(Signed s) {
            synchronized (lock) {
                if (closed) {
                    return;
                }
                pending = s;
                if (busy) {
                    return;
                }
                busy = true;
            }
            run(this::next, 0);
        }

        boolean idle() {
            synchronized (lock) {
                return closed || !busy && pending == null;
            }
        }

        void close() {
            synchronized (lock) {
                closed = true;
                pending = null;
            }
        }

        private void next() {
            Signed s;
            synchronized (lock) {
                s = closed ? null : pending;
                pending = null;
                if (s == null) {
                    busy = false;
                }
            }
            if (s == null) {
                changed();
                return;
            }
            attempt(s, 1);
        }

        private void attempt(Signed s, int attempt) {
            Result r;
            try {
                r = cosign(s, attempt);
            } catch (RuntimeException e) {
                // a closed store at shutdown, a database error: this checkpoint is given up, the ledger goes on
                LOG.warnf("ledger %s: witness %s: checkpoint %d not cosigned (%s)", store.tenant(), witness.id(),
                        s.checkpoint().size(), e.getClass().getSimpleName());
                r = Result.DONE;
            }
            boolean retry;
            synchronized (lock) {
                retry = !closed && pending == null; // a newer checkpoint supersedes this one
            }
            if (r == Result.RETRY && retry && attempt < Witnessing.ATTEMPTS) {
                run(() -> attempt(s, attempt + 1), backoff.toMillis() << (attempt - 1));
            } else {
                next();
            }
        }

        private void run(Runnable task, long delayMillis) {
            try {
                pool.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                close(); // the gateway is stopping
                synchronized (lock) {
                    busy = false;
                }
                changed();
            }
        }

        private Result cosign(Signed s, int attempt) {
            Checkpoint c = s.checkpoint();
            long n = c.size();
            if (state == null) {
                WitnessState stored = store.witnessState(witness.id());
                state = stored != null ? stored : new WitnessState(0, List.of());
            }
            if (state.size() > n) {
                return Result.DONE; // it has cosigned a later checkpoint (409 before): wait for the log to pass it
            }
            boolean conflictSeen = false;
            while (true) {
                long m = state.size();
                List<byte[]> proof = FrontierProofs.consistency(m, frontierAt(state), leaves(m, n));
                AddCheckpoint.Outcome o = client.send(witness.addCheckpoint(), m, proof, s.note());
                if (o instanceof AddCheckpoint.Outcome.Cosigned cosigned) {
                    return stored(s, cosigned.lines());
                }
                if (o instanceof AddCheckpoint.Outcome.Conflict conflict && !conflictSeen) {
                    conflictSeen = true;
                    state = new WitnessState(conflict.size(), null);
                    store.putWitnessState(witness.id(), state);
                    if (conflict.size() > n) {
                        LOG.warnf("ledger %s: witness %s has cosigned size %d, past this checkpoint (%d): it waits for a later"
                                + " one", store.tenant(), witness.id(), conflict.size(), n);
                        return Result.DONE;
                    }
                    LOG.infof("ledger %s: witness %s is at size %d, not %d: sending the proof from there", store.tenant(),
                            witness.id(), conflict.size(), m);
                    continue;
                }
                failures++;
                if (o instanceof AddCheckpoint.Outcome.Refused refused) {
                    // an inconsistency is evidence of a fork: always said; a misconfiguration is said as failures double
                    LOG.logf(refused.status() == 422 ? Logger.Level.ERROR : level(), "ledger %s: witness %s refused checkpoint"
                            + " %d: HTTP %d, %s (%d failures in a row)", store.tenant(), witness.id(), n, refused.status(),
                            refused.meaning(), failures);
                    return Result.DONE;
                }
                if (o instanceof AddCheckpoint.Outcome.Conflict conflict) {
                    LOG.warnf("ledger %s: witness %s answered 409 again (size %d) for checkpoint %d (%d failures in a row)",
                            store.tenant(), witness.id(), conflict.size(), n, failures);
                    return Result.DONE;
                }
                AddCheckpoint.Outcome.Unavailable u = (AddCheckpoint.Outcome.Unavailable) o;
                LOG.logf(level(), "ledger %s: witness %s: checkpoint %d, attempt %d of %d: %s (%d failures in a row)",
                        store.tenant(), witness.id(), n, attempt, Witnessing.ATTEMPTS, u.reason(), failures);
                return Result.RETRY;
            }
        }

        // a witness down for long is logged at the 1st, 2nd, 4th, 8th... failure in a row, not at every attempt
        private Logger.Level level() {
            return Long.bitCount(failures) == 1 ? Logger.Level.WARN : Logger.Level.DEBUG;
        }

        // keeps the first line that verifies under the pinned key; the others are not this witness's to keep
        private Result stored(Signed s, List<String> lines) {
            Checkpoint c = s.checkpoint();
            String text = c.text();
            String good = null;
            int invalid = 0;
            for (String line : lines) {
                WitnessKey.Check check = witness.key().check(text, line);
                if (check instanceof WitnessKey.Check.Valid && good == null) {
                    good = line;
                } else if (check instanceof WitnessKey.Check.Invalid) {
                    invalid++;
                }
            }
            if (good == null) {
                failures++;
                LOG.warnf("ledger %s: witness %s answered checkpoint %d with %d signature lines, none a valid cosignature"
                        + " under its configured key (%d invalid) (%d failures in a row)", store.tenant(), witness.id(),
                        c.size(), lines.size(), invalid, failures);
                return Result.DONE;
            }
            if (!store.addSignatureLine(c.size(), good, l -> witness.key().check(text, l) != null)) {
                LOG.warnf("ledger %s: witness %s cosigned checkpoint %d, which is no longer stored", store.tenant(), witness.id(),
                        c.size());
            }
            state = new WitnessState(c.size(), s.frontier());
            store.putWitnessState(witness.id(), state);
            if (failures > 0) {
                LOG.infof("ledger %s: witness %s cosigns again (checkpoint %d) after %d failures", store.tenant(), witness.id(),
                        c.size(), failures);
            }
            failures = 0;
            LOG.debugf("ledger %s: witness %s cosigned checkpoint %d", store.tenant(), witness.id(), c.size());
            return Result.DONE;
        }

        // the frontier at the witness's size: stored with its state, else rebuilt from the stored entries once (O(size))
        private List<byte[]> frontierAt(WitnessState st) {
            if (st.frontier() != null) {
                return st.frontier();
            }
            TreeHasher hasher = new TreeHasher();
            MerkleTree tree = new MerkleTree();
            for (long from = 0; from < st.size(); from += HASH_BATCH) {
                for (byte[] h : store.hashes(from, Math.min(st.size(), from + HASH_BATCH) - 1)) {
                    tree.appendLeafHash(hasher.leaf(h));
                }
            }
            state = new WitnessState(st.size(), tree.frontier());
            return state.frontier();
        }

        private List<byte[]> leaves(long m, long n) {
            TreeHasher hasher = new TreeHasher();
            List<byte[]> out = new ArrayList<>((int) Math.min(n - m, 1 << 20));
            for (long from = m; from < n; from += HASH_BATCH) {
                for (byte[] h : store.hashes(from, Math.min(n, from + HASH_BATCH) - 1)) {
                    out.add(hasher.leaf(h));
                }
            }
            return out;
        }
    }
}
