package dev.cloakgate.ledger;

import java.time.Duration;
import java.util.List;

import dev.cloakgate.crypto.Checkpoint;

/**
 * Told of each checkpoint the ledger signs and stores, to have it cosigned (C2SP tlog-witness) off the writer's
 * thread: {@link #signed} must return at once and never throw for a witness's sake.
 */
public interface CheckpointWitness extends AutoCloseable {

    /**
     * A stored checkpoint: its parsed body, the signed note as stored, and the frontier of the tree at its size
     * (null when not at hand, as for a checkpoint read back from the store).
     */
    record Signed(Checkpoint checkpoint, byte[] note, List<byte[]> frontier) {
        public Signed {
            note = note.clone();
            frontier = frontier == null ? null : List.copyOf(frontier);
        }

        @Override
        public byte[] note() {
            return note.clone();
        }
    }

    void signed(Signed checkpoint);

    /** Waits up to {@code max} until nothing is being sent or waiting to be; true when idle. */
    boolean awaitIdle(Duration max);

    /** Stops: nothing more is sent, retries waiting are dropped. */
    @Override
    void close();

    CheckpointWitness NONE = new CheckpointWitness() {
        @Override
        public void signed(Signed checkpoint) {
        }

        @Override
        public boolean awaitIdle(Duration max) {
            return true;
        }

        @Override
        public void close() {
        }
    };
}
