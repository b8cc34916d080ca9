package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.KeyId;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.NoteVerifier;
import dev.cloakgate.crypto.SignedNote;

/**
 * Reads a stored ledger from seq 0 before a gateway continues it: every entry must chain (the same checks an
 * auditor runs, {@link ChainVerifier}) and match its stored hash, and every stored checkpoint must be a note of
 * this ledger's key name whose root is the root recomputed at its size. The Merkle tree is rebuilt on the way, so
 * what it returns is what the writer continues from.
 *
 * <p>A ledger that fails is refused rather than continued: appending to a damaged chain would make the damage look
 * like history. Messages name the tenant, seq and kind of failure, never an entry's content.
 */
final class LedgerReplay {
    /** Entries read and verified at a time: bounds memory whatever the ledger's size. */
    static final int CHUNK = 10_000;

    /**
     * The latest stored checkpoint and the key that signed it (the current key, or a previous one): its ID and name,
     * and {@code verified} when a key at hand checked the signature.
     */
    record Latest(Checkpoint checkpoint, KeyId signedBy, String keyName, boolean verified) {
    }

    /** The rebuilt tree; {@code latest} is null when no checkpoint is stored. */
    record Outcome(MerkleTree tree, int checkpoints, Latest latest) {
    }

    private final LedgerStore store;
    private final String origin;
    private final NoteVerifier current;
    private final List<NoteVerifier> held;
    private final int chunk;
    private final TreeHasher hasher = new TreeHasher();

    private LedgerReplay(LedgerStore store, String origin, NoteVerifier current, List<NoteVerifier> held, int chunk) {
        this.store = store;
        this.origin = origin;
        this.current = current;
        this.held = held;
        this.chunk = chunk;
    }

    /**
     * @param current the verifier of the checkpoint key the gateway signs with now: notes under its key ID must
     *        verify with it
     * @param held earlier keys the gateway still holds (the master under the legacy name, a configured previous key):
     *        notes under their IDs must verify with them too. Notes under another key ID, named as the origin or
     *        with the legacy name, are from a previous key that is not at hand, so only their content is checked
     * @throws LedgerStoreException when the ledger is damaged
     */
    static Outcome replay(LedgerStore store, String origin, NoteVerifier current, List<NoteVerifier> held) {
        return replay(store, origin, current, held, CHUNK);
    }

    /** With another chunk size, so that tests cross chunk boundaries without tens of thousands of entries. */
    static Outcome replay(LedgerStore store, String origin, NoteVerifier current, List<NoteVerifier> held, int chunk) {
        return new LedgerReplay(store, origin, current, held, chunk).run();
    }

    private Outcome run() {
        // checkpoints first: a shared log grows meanwhile (other replicas), and a checkpoint never covers more than
        // the entries committed when it was stored, so every one read here is within the size read next
        List<LedgerStore.StoredCheckpoint> stored = store.checkpoints(Long.MIN_VALUE, Long.MAX_VALUE);
        long n = store.size();
        Map<Long, byte[]> rootsAt = new HashMap<>();
        for (LedgerStore.StoredCheckpoint c : stored) {
            if (c.size() < 1 || c.size() > n) {
                throw damaged("checkpoint of size " + c.size(), "CHECKPOINT_SIZE", "beyond the " + n + " entries stored");
            }
            rootsAt.put(c.size(), null);
        }
        MerkleTree tree = rebuild(n, rootsAt);
        Latest latest = null;
        for (LedgerStore.StoredCheckpoint c : stored) {
            latest = check(c, rootsAt.get(c.size()));
        }
        return new Outcome(tree, stored.size(), latest);
    }

    private MerkleTree rebuild(long n, Map<Long, byte[]> rootsAt) {
        ChainVerifier chain = new ChainVerifier();
        MerkleTree tree = new MerkleTree();
        byte[] prev = EntryHash.GENESIS;
        for (long from = 0; from < n; from += chunk) {
            long to = Math.min(n, from + chunk) - 1;
            List<byte[]> entries = store.read(from, to);
            if (entries.size() != to - from + 1) {
                throw damaged("seq " + from + ".." + to, "MISSING_ENTRIES", (to - from + 1 - entries.size()) + " of them are missing");
            }
            ChainVerifier.Result r = chain.verify(store.tenant(), entries, prev);
            List<byte[]> storedHashes = store.hashes(from, to);
            firstFailure(from, r, storedHashes);
            for (byte[] h : r.hashes()) {
                tree.appendLeafHash(hasher.leaf(h));
                if (rootsAt.containsKey(tree.size())) {
                    rootsAt.put(tree.size(), tree.root());
                }
            }
            prev = r.hashes().get(r.hashes().size() - 1);
        }
        return tree;
    }

    // throws for the lowest seq that fails: that is where the damage starts, later failures may only follow from it
    private void firstFailure(long from, ChainVerifier.Result r, List<byte[]> storedHashes) {
        long worstSeq = Long.MAX_VALUE;
        String kind = null;
        String detail = null;
        int count = r.failures().size();
        for (int i = storedHashes.size() - 1; i >= 0; i--) {
            if (!Arrays.equals(storedHashes.get(i), r.hashes().get(i))) {
                count++;
                worstSeq = from + i;
                kind = "STORED_HASH_MISMATCH";
                detail = "its stored hash is not the hash of its bytes";
            }
        }
        for (ChainFailure f : r.failures()) {
            long seq = from + f.line() - 1;
            if (seq < worstSeq) {
                worstSeq = seq;
                kind = f.kind().name();
                detail = f.detail();
            }
        }
        if (kind == null && r.firstSeq() != from) {
            count = 1;
            worstSeq = from;
            kind = ChainFailure.Kind.SEQ_GAP.name();
            detail = "the entry stored as seq " + from + " says seq " + r.firstSeq();
        }
        if (kind != null) {
            throw damaged("seq " + worstSeq, kind, detail + (count > 1 ? " (" + (count - 1) + " more failures in seq " + from
                    + ".." + (from + storedHashes.size() - 1) + ")" : ""));
        }
    }

    private Latest check(LedgerStore.StoredCheckpoint c, byte[] root) {
        String where = "checkpoint of size " + c.size();
        List<NoteVerifier> trusted = new java.util.ArrayList<>(List.of(current));
        trusted.addAll(held);
        NoteVerification opened = SignedNote.open(c.note(), trusted);
        KeyId signedBy;
        String keyName;
        boolean verified;
        String text;
        if (opened instanceof NoteVerification.Verified ok) {
            NoteVerifier by = ok.signedBy().contains(current) ? current : ok.signedBy().get(0);
            signedBy = by.keyId();
            keyName = by.name();
            verified = true;
            text = ok.text();
        } else {
            NoteVerification.Rejected rejected = (NoteVerification.Rejected) opened;
            boolean onlyUnknown = rejected.problems().stream().allMatch(p -> p.kind() == NoteVerification.Kind.UNKNOWN_KEY
                    || p.kind() == NoteVerification.Kind.NO_TRUSTED_SIGNATURE);
            if (!onlyUnknown) {
                throw damaged(where, "CHECKPOINT_SIGNATURE", rejected.problems().stream()
                        .map(p -> p.kind() + " " + p.detail()).collect(Collectors.joining("; ")));
            }
            // signed by a previous key: its public key is not at hand, so the root is what can be checked
            List<NoteVerification.SignatureLine> claimed = SignedNote.claimedSigners(c.note()).stream()
                    .filter(l -> l.keyName().equals(origin) || l.keyName().equals(LogKeys.LEGACY_KEY_NAME)).toList();
            if (claimed.isEmpty()) {
                throw damaged(where, "CHECKPOINT_SIGNATURE", "no signature under the ledger's key name " + origin
                        + " (or " + LogKeys.LEGACY_KEY_NAME + ")");
            }
            signedBy = claimed.get(0).keyId();
            keyName = claimed.get(0).keyName();
            verified = false;
            String whole = new String(c.note(), StandardCharsets.UTF_8); // well-formed, so valid UTF-8
            text = whole.substring(0, whole.lastIndexOf("\n\n") + 1);
        }
        if (!(Checkpoint.parse(text) instanceof Checkpoint.Parse.Ok parsed)) {
            throw damaged(where, "CHECKPOINT_MALFORMED", "its text is not a checkpoint");
        }
        Checkpoint cp = parsed.checkpoint();
        if (!cp.origin().equals(origin)) {
            throw damaged(where, "CHECKPOINT_ORIGIN", "origin is not " + origin);
        }
        if (cp.size() != c.size()) {
            throw damaged(where, "CHECKPOINT_SIZE", "its note says size " + cp.size());
        }
        if (!Arrays.equals(cp.rootHash(), root)) {
            throw damaged(where, "CHECKPOINT_ROOT", "its root is not the root of the stored entries");
        }
        return new Latest(cp, signedBy, keyName, verified);
    }

    private LedgerStoreException damaged(String where, String kind, String detail) {
        return new LedgerStoreException("ledger of tenant '" + store.tenant() + "' is damaged at " + where + " (" + kind + ": "
                + detail + "); the gateway refuses to continue it. Restore " + store.location()
                + " from a backup, or move it aside to start a new ledger");
    }
}
