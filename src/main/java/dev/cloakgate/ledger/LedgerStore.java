package dev.cloakgate.ledger;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where one tenant's ledger lives: its entries (seq, entry hash, exact RFC 8785 bytes), signed checkpoints, witness
 * state and origin. {@link SqliteLedgerStore} keeps it in a file one process writes (the default);
 * {@link PostgresLedgerStore} keeps it in PostgreSQL, one log per tenant shared by every replica, appends serialised
 * by a row lock on the tenant's head. Either way an append is one transaction (a batch is wholly stored or wholly
 * absent) and the chain, the tree and the export are the same bytes.
 */
public interface LedgerStore extends AutoCloseable {
    int FORMAT = 1;

    /** One stored entry's position and hash. */
    record Appended(long seq, byte[] hash) {
    }

    /** A signed checkpoint (C2SP signed note, UTF-8) of the tree of the first {@code size} entries. */
    record StoredCheckpoint(long size, byte[] note) {
    }

    /** What a witness last cosigned of this log: its size, and the frontier there (null when not known). */
    record WitnessState(long size, List<byte[]> frontier) {
        /** As stored: the frontier's hashes concatenated; one that is not the size's frontier reads as unknown. */
        static WitnessState stored(long size, byte[] f) {
            List<byte[]> frontier = null;
            if (f != null && f.length == TreeHasher.HASH_SIZE * Long.bitCount(size)) {
                frontier = new java.util.ArrayList<>();
                for (int i = 0; i < f.length; i += TreeHasher.HASH_SIZE) {
                    frontier.add(java.util.Arrays.copyOfRange(f, i, i + TreeHasher.HASH_SIZE));
                }
            }
            return new WitnessState(size, frontier);
        }

        /** The frontier's hashes concatenated, or null when not known. */
        byte[] encodedFrontier() {
            if (frontier == null) {
                return null;
            }
            java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream();
            frontier.forEach(f::writeBytes);
            return f.toByteArray();
        }
    }

    /** The SQLite ledger of {@code tenant} under {@code dataDir}, held by this process (an OS lock). */
    static SqliteLedgerStore open(Path dataDir, String tenant) {
        return SqliteLedgerStore.open(dataDir, tenant);
    }

    static SqliteLedgerStore open(Path dataDir, String tenant, Clock clock) {
        return SqliteLedgerStore.open(dataDir, tenant, clock);
    }

    /** An existing SQLite ledger, for reading beside the gateway that writes it. */
    static SqliteLedgerStore openReadOnly(Path dataDir, String tenant) {
        return SqliteLedgerStore.openReadOnly(dataDir, tenant);
    }

    String tenant();

    /** Where the ledger lives, for messages (a file, or the database's tables). */
    String location();

    /**
     * Appends the bodies (each the kind's fields plus {@code kind}) as consecutive entries in ONE transaction: all are
     * stored or, if any fails (a body that has no canonical form, a disk or database error), none is and the chain
     * stays where it was. The seqs, {@code prev} and {@code ts} are assigned here, from the stored head.
     */
    List<Appended> append(List<ObjectNode> bodies);

    /**
     * Appends a {@code key_rotated} entry unless the log already names {@code keyId} as its checkpoint key (another
     * replica recorded the same rotation): empty then. Decided where appends are serialised.
     */
    List<Appended> appendRotation(ObjectNode entry, String keyId);

    /** The exact stored bytes of entries {@code fromSeq..toSeqInclusive}, in seq order. */
    List<byte[]> read(long fromSeq, long toSeqInclusive);

    /** The stored entry hash of {@code seq}. */
    byte[] hash(long seq);

    /** The stored hashes of entries {@code fromSeq..toSeqInclusive}, in seq order, in one query. */
    List<byte[]> hashes(long fromSeq, long toSeqInclusive);

    /**
     * The stored entries as Merkle leaves: leaf i is {@link TreeHasher#leaf} of entry i's hash, the form
     * {@link MerkleTree#append} gives for the entry hash as leaf data.
     */
    default LeafSource leaves() {
        TreeHasher hasher = new TreeHasher();
        return new LeafSource() {
            @Override
            public long size() {
                return LedgerStore.this.size();
            }

            @Override
            public byte[] leafHash(long index) {
                synchronized (hasher) {
                    return hasher.leaf(hash(index));
                }
            }
        };
    }

    /**
     * Stores a signed checkpoint of the first {@code size} entries ({@code 1 <= size <= size()}). The store does not
     * check the signature or the root: the caller (the ledger's checkpointer) made both.
     */
    void putCheckpoint(long size, byte[] note);

    /** Stored checkpoints with {@code fromSize <= size <= toSize}, smallest first. */
    List<StoredCheckpoint> checkpoints(long fromSize, long toSize);

    /** The stored checkpoint with the largest size, or null when none exists. */
    StoredCheckpoint latestCheckpoint();

    /** The recorded state of {@code witness}, or null when it never cosigned (or answered) for this log. */
    WitnessState witnessState(String witness);

    void putWitnessState(String witness, WitnessState state);

    /**
     * Adds a signature line (a witness's cosignature, without its newline) to the stored checkpoint of {@code size},
     * first dropping the lines {@code replaces} matches (the same witness's earlier cosignature). False when no
     * checkpoint of that size is stored.
     */
    boolean addSignatureLine(long size, String line, Predicate<String> replaces);

    boolean readOnly();

    /** True when other processes (replicas) append to this same log: what this process saw may be behind. */
    default boolean shared() {
        return false;
    }

    /** The checkpoint origin stored with this ledger, or null for a ledger created before origins were stored. */
    String storedOrigin();

    /** Stores the origin once; a ledger's origin never changes, so a second, different one is refused. */
    void storeOrigin(String origin);

    /** Number of entries stored (the next seq). */
    long size();

    /** Seq of the last entry, -1 when empty. */
    long lastSeq();

    /** Hash of the last entry, {@link EntryHash#GENESIS} when empty. */
    byte[] lastHash();

    /** Re-reads what a writer may have appended since (a store that caches its head). */
    void refresh();

    /** A store for a long read (an export) that does not hold up this one's writer; the caller closes it. */
    LedgerStore reader();

    @Override
    void close();
}
