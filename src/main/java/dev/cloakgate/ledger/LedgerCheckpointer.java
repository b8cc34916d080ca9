package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.SignedNote;

/**
 * Keeps one ledger's Merkle tree current with what the writer commits and signs checkpoints of it: every
 * {@code every} entries, once {@code interval} has passed with entries not yet covered, and on demand. The tree
 * and the last checkpoint are guarded by one lock, since the writer thread and callers of {@link #checkpointNow}
 * both use them.
 */
final class LedgerCheckpointer implements LedgerWriter.Listener {
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(LedgerCheckpointer.class);
    private final Object lock = new Object();
    private final LedgerStore store;
    private final String origin;
    private final NoteSigner signer;
    private final int every;
    private final Duration interval;
    private final Clock clock;
    private final TreeHasher hasher = new TreeHasher(); // only under lock: it owns one digest
    private final MerkleTree tree;
    private final ChainVerifier chain = new ChainVerifier();
    /** Issue 17: the hash of the last entry the tree holds, which the next one caught up must chain to. */
    private byte[] lastEntryHash;
    private Checkpoint last;
    private Instant lastAt;
    /** When the oldest entry not covered by {@link #last} was seen (null when all are covered). */
    private Instant uncoveredSince;
    /** Issue 15: the old key that co-signs the next checkpoint after a rotation, then null. */
    private NoteSigner coSigner;
    // ---- issue 15, witness cosigning ----
    private volatile CheckpointWitness witness = CheckpointWitness.NONE;

    /** @param last the latest stored checkpoint, null when none */
    LedgerCheckpointer(LedgerStore store, String origin, NoteSigner signer, MerkleTree tree, Checkpoint last, int every,
            Duration interval, Clock clock) {
        this.store = store;
        this.origin = origin;
        this.signer = signer;
        this.tree = tree;
        this.last = last;
        this.every = every;
        this.interval = interval;
        this.clock = clock;
        this.lastAt = clock.instant();
        // the replay verified the chain up to here, so the stored hash of the tree's last entry is the chain's
        this.lastEntryHash = tree.size() == 0 ? EntryHash.GENESIS : store.hash(tree.size() - 1);
    }

    @Override
    public void appended(List<LedgerStore.Appended> batch) {
        synchronized (lock) {
            if (uncoveredSince == null && !batch.isEmpty()) {
                uncoveredSince = clock.instant();
            }
            for (LedgerStore.Appended a : batch) {
                // issue 17: on a shared log other replicas' entries come first (catch up from the store), and a
                // checkpoint taken meanwhile (catching up to the store) may already hold this batch
                catchUp(a.seq());
                if (a.seq() == tree.size()) {
                    tree.appendLeafHash(hasher.leaf(a.hash()));
                    lastEntryHash = a.hash();
                }
            }
            // the interval is checked here too: a steady trickle of entries may never leave the writer idle
            if (uncovered() >= every || uncovered() > 0 && intervalPassed()) {
                write();
            }
        }
    }

    @Override
    public void idle() {
        synchronized (lock) {
            if (uncovered() > 0 && intervalPassed()) {
                write();
            }
        }
    }

    /**
     * A signed, stored checkpoint of every entry the tree has seen, or the latest one when nothing is new. With no
     * entries at all it is the empty tree's checkpoint, which is not stored: every log is consistent with it.
     */
    Checkpoint checkpointNow() {
        synchronized (lock) {
            catchUp(store.size());
            if (uncovered() > 0) {
                return write();
            }
            return last != null ? last : new Checkpoint(origin, 0, tree.root());
        }
    }

    /**
     * The next checkpoint written is signed by {@code old} as well: the first checkpoint after a {@code key_rotated}
     * entry, so a verifier who trusts only the old key sees the rotation entry under a signature it trusts.
     */
    void coSignNext(NoteSigner old) {
        synchronized (lock) {
            coSigner = old;
        }
    }

    /** Entries the tree holds (committed and seen by this listener). */
    long size() {
        synchronized (lock) {
            return tree.size();
        }
    }

    /** 0 when every entry seen is covered by the latest checkpoint, else how long the oldest other one has waited. */
    Duration uncoveredAge() {
        synchronized (lock) {
            return uncovered() == 0 || uncoveredSince == null ? Duration.ZERO
                    : Duration.between(uncoveredSince, clock.instant());
        }
    }

    private long uncovered() {
        return tree.size() - (last == null ? 0 : last.size());
    }

    private boolean intervalPassed() {
        return Duration.between(lastAt, clock.instant()).compareTo(interval) >= 0;
    }

    // if storing fails, last stays where it was, so the next append or idle tries again
    private Checkpoint write() {
        catchUp(store.size()); // issue 17: a checkpoint of the whole shared log as it stands, not of what this replica saw
        Checkpoint c = new Checkpoint(origin, tree.size(), tree.root());
        List<NoteSigner> signers = coSigner == null ? List.of(signer) : List.of(signer, coSigner);
        byte[] note = SignedNote.sign(c.text(), signers).getBytes(StandardCharsets.UTF_8);
        store.putCheckpoint(c.size(), note);
        coSigner = null;
        last = c;
        lastAt = clock.instant();
        uncoveredSince = null;
        witness(new CheckpointWitness.Signed(c, note, tree.frontier()));
        return c;
    }

    /**
     * Issue 17: appends to the tree the stored entries below {@code size} it does not hold yet (appended by other
     * replicas of a shared log), after checking that they chain on from the last entry the tree holds (the checks
     * an auditor runs): this replica never signs a checkpoint over entries that do not form the chain. The tree is
     * append-only and entries never change, so it only ever grows to the log.
     */
    private void catchUp(long size) {
        while (tree.size() < size) {
            long from = tree.size();
            long to = Math.min(size, from + LedgerReplay.CHUNK) - 1;
            List<byte[]> entries = store.read(from, to);
            ChainVerifier.Result r = chain.verify(store.tenant(), entries, lastEntryHash);
            if (entries.size() != to - from + 1 || !r.valid() || r.firstSeq() != from) {
                throw new LedgerStoreException(store.location() + ": entries " + from + ".." + to + " are not all stored or"
                        + " do not chain on from entry " + (from - 1) + " (" + r.failures().size() + " failures); no"
                        + " checkpoint is signed over them");
            }
            for (byte[] h : r.hashes()) {
                tree.appendLeafHash(hasher.leaf(h));
            }
            lastEntryHash = r.hashes().get(r.hashes().size() - 1);
        }
    }

    // ---- issue 15, witness cosigning: each stored checkpoint goes to the witnesses, off this thread ----
    /** From now on each stored checkpoint goes to {@code w}; the latest stored one goes at once (catching up). */
    void witnessWith(CheckpointWitness w) {
        synchronized (lock) {
            witness = w;
            LedgerStore.StoredCheckpoint stored = store.latestCheckpoint();
            if (last != null && stored != null && stored.size() == last.size()) {
                witness(new CheckpointWitness.Signed(last, stored.note(), tree.size() == last.size() ? tree.frontier() : null));
            }
        }
    }

    private void witness(CheckpointWitness.Signed signed) {
        try {
            witness.signed(signed);
        } catch (RuntimeException e) {
            // a witness never stops the ledger
            LOG.warnf("ledger %s: handing checkpoint %d to the witnesses failed (%s)", store.tenant(), signed.checkpoint().size(),
                    e.getClass().getSimpleName());
        }
    }
}
