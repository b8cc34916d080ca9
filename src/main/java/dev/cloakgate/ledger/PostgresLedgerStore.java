package dev.cloakgate.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One tenant's ledger in PostgreSQL (tables {@code ledger_*}, Flyway {@code V2__ledger.sql}): ONE log per tenant,
 * shared by every replica, so an export from any replica is the whole log.
 *
 * <p><b>One chain from several writers.</b> An append is one transaction that locks the tenant's head row
 * ({@code SELECT ... FOR UPDATE}), reads the next seq and the last hash there (never from what this process saw: another
 * replica may have appended since), assigns seq, {@code prev} and {@code ts} to the batch, inserts it and moves the
 * head. Replicas' batches are serialised by that lock and chain one after the other; a process killed mid-batch
 * leaves it wholly absent (the transaction never commits). Group commit ({@link LedgerWriter}) amortises the lock and
 * the commit over a batch as it does SQLite's fsync.
 *
 * <p><b>Checkpoints</b> are kept once per tree size. Any replica may sign one; a tree size's root is the same
 * whoever signs it (Ed25519 is deterministic too), so a second signing of a size adds only the signature lines the
 * stored note lacks (an old key's co-signature after a rotation, a witness's cosignature); a second signing with
 * another root is a fork and is refused.
 *
 * <p>Nothing is cached: every read asks the database, each call on a pooled connection of its own, so an export reads
 * beside the writer without holding it up. The data source is the caller's (Quarkus' pool); closing the store does not
 * close it.
 */
public final class PostgresLedgerStore implements LedgerStore {
    private final DataSource db;
    private final String tenant;
    private final Clock clock;
    private final boolean readOnly;
    private volatile boolean closed;

    private PostgresLedgerStore(DataSource db, String tenant, Clock clock, boolean readOnly) {
        this.db = db;
        this.tenant = tenant;
        this.clock = clock;
        this.readOnly = readOnly;
    }

    /** The tenant's log, created (an empty head) when the database has none yet. */
    public static PostgresLedgerStore open(DataSource db, String tenant, Clock clock) {
        EntryEnvelope.requireTenant(tenant);
        PostgresLedgerStore store = new PostgresLedgerStore(db, tenant, clock, false);
        store.transaction("open", c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO ledger_heads (tenant, format, next_seq, last_hash)"
                    + " VALUES (?, ?, 0, ?) ON CONFLICT (tenant) DO NOTHING")) {
                p.setString(1, tenant);
                p.setInt(2, FORMAT);
                p.setBytes(3, EntryHash.GENESIS);
                p.executeUpdate();
            }
            store.requireFormat(c);
            return null;
        });
        return store;
    }

    /** An existing log, for reading only. */
    public static PostgresLedgerStore openReadOnly(DataSource db, String tenant) {
        EntryEnvelope.requireTenant(tenant);
        PostgresLedgerStore store = new PostgresLedgerStore(db, tenant, Clock.systemUTC(), true);
        store.transaction("open", c -> {
            store.requireFormat(c);
            return null;
        });
        return store;
    }

    private void requireFormat(Connection c) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT format FROM ledger_heads WHERE tenant = ?")) {
            p.setString(1, tenant);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    throw new LedgerStoreException("no ledger for tenant '" + tenant + "' in the shared database");
                }
                if (rs.getInt(1) != FORMAT) {
                    throw new LedgerStoreException(location() + " has ledger format " + rs.getInt(1) + "; this gateway reads " + FORMAT);
                }
            }
        }
    }

    // one transaction on a pooled connection; rolled back on any failure
    private <T> T transaction(String what, dev.cloakgate.store.Transaction.Work<T, RuntimeException> work) {
        if (closed) {
            throw new IllegalStateException("ledger store " + location() + " is closed");
        }
        try {
            return dev.cloakgate.store.Transaction.run(db, true, work);
        } catch (SQLException e) {
            throw new LedgerStoreException(location() + ": " + what + " failed: " + describe(e), e);
        }
    }

    // the driver's batch message quotes the statement with its parameters (an entry's bytes): only the first line of
    // the server's own error, and the SQLState
    private static String describe(SQLException e) {
        SQLException cause = e.getNextException() != null ? e.getNextException() : e;
        String m = String.valueOf(cause.getMessage());
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)) + " (SQLState " + cause.getSQLState() + ")";
    }

    @Override
    public List<Appended> append(List<ObjectNode> bodies) {
        return append(bodies, null);
    }

    @Override
    public List<Appended> appendRotation(ObjectNode entry, String keyId) {
        return append(List.of(entry), keyId);
    }

    /** With {@code rotatedTo}: nothing when the head already names that key, else the entry and the head names it. */
    private List<Appended> append(List<ObjectNode> bodies, String rotatedTo) {
        ensureWritable();
        if (bodies.isEmpty()) {
            return List.of();
        }
        return transaction("append of " + bodies.size() + " entries (none stored)", c -> {
            long seq;
            byte[] prev;
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT next_seq, last_hash, checkpoint_key FROM ledger_heads WHERE tenant = ? FOR UPDATE")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next()) {
                        throw new LedgerStoreException("no ledger for tenant '" + tenant + "' in the shared database");
                    }
                    seq = rs.getLong(1);
                    prev = rs.getBytes(2);
                    if (rotatedTo != null && rotatedTo.equals(rs.getString(3))) {
                        return List.of();
                    }
                }
            }
            // the time is taken under the lock, so a replica's batch is stamped after the one it chains to
            List<EntryEnvelope.Sealed> sealed = EntryEnvelope.chain(tenant, bodies, seq, EntryEnvelope.ts(clock.instant()), prev);
            List<Appended> out = new ArrayList<>(bodies.size());
            try (PreparedStatement p = c.prepareStatement("INSERT INTO ledger_entries (tenant, seq, hash, bytes) VALUES (?, ?, ?, ?)")) {
                for (EntryEnvelope.Sealed e : sealed) {
                    p.setString(1, tenant);
                    p.setLong(2, e.seq());
                    p.setBytes(3, e.hash());
                    p.setBytes(4, e.bytes());
                    p.addBatch();
                    out.add(e.appended());
                }
                p.executeBatch();
            }
            EntryEnvelope.Sealed last = sealed.get(sealed.size() - 1);
            try (PreparedStatement p = c.prepareStatement("UPDATE ledger_heads SET next_seq = ?, last_hash = ?,"
                    + " checkpoint_key = COALESCE(?, checkpoint_key) WHERE tenant = ?")) {
                p.setLong(1, last.seq() + 1);
                p.setBytes(2, last.hash());
                p.setString(3, rotatedTo);
                p.setString(4, tenant);
                p.executeUpdate();
            }
            return out;
        });
    }

    @Override
    public List<byte[]> read(long fromSeq, long toSeqInclusive) {
        return column("bytes", fromSeq, toSeqInclusive);
    }

    @Override
    public List<byte[]> hashes(long fromSeq, long toSeqInclusive) {
        return column("hash", fromSeq, toSeqInclusive);
    }

    // one column of a seq range in one query; the column name is one of this class's constants, never input
    private List<byte[]> column(String column, long fromSeq, long toSeqInclusive) {
        if (fromSeq < 0 || toSeqInclusive < fromSeq - 1) {
            throw new IndexOutOfBoundsException("entries " + fromSeq + ".." + toSeqInclusive);
        }
        return transaction("read", c -> {
            List<byte[]> out = new ArrayList<>((int) Math.min(toSeqInclusive - fromSeq + 1, 1 << 16));
            try (PreparedStatement p = c.prepareStatement("SELECT " + column
                    + " FROM ledger_entries WHERE tenant = ? AND seq BETWEEN ? AND ? ORDER BY seq")) {
                p.setFetchSize(10_000); // streamed in chunks inside the transaction, not the whole range at once
                p.setString(1, tenant);
                p.setLong(2, fromSeq);
                p.setLong(3, toSeqInclusive);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getBytes(1));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public byte[] hash(long seq) {
        List<byte[]> one = hashes(seq, seq);
        if (one.isEmpty()) {
            throw new IndexOutOfBoundsException("entry " + seq + " of " + size());
        }
        return one.get(0);
    }

    @Override
    public void putCheckpoint(long size, byte[] note) {
        ensureWritable();
        if (size < 1) {
            throw new IllegalArgumentException("checkpoint size " + size + " is below 1");
        }
        transaction("storing the checkpoint of size " + size, c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO ledger_checkpoints (tenant, size, note) VALUES (?, ?, ?)"
                    + " ON CONFLICT (tenant, size) DO NOTHING")) {
                p.setString(1, tenant);
                p.setLong(2, size);
                p.setBytes(3, note);
                if (p.executeUpdate() == 1) {
                    return null;
                }
            }
            // another replica (or an earlier signing) stored this size: keep one note with every signature line
            byte[] stored = lockedNote(c, size);
            byte[] merged = NoteLines.merged(stored, note);
            if (merged == null) {
                throw new LedgerStoreException(location() + ": a checkpoint of size " + size + " is stored with another"
                        + " text (another root or origin): two histories of one log; refusing to store the second");
            }
            updateNote(c, size, merged);
            return null;
        });
    }

    private byte[] lockedNote(Connection c, long size) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT note FROM ledger_checkpoints WHERE tenant = ? AND size = ? FOR UPDATE")) {
            p.setString(1, tenant);
            p.setLong(2, size);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        }
    }

    private void updateNote(Connection c, long size, byte[] note) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE ledger_checkpoints SET note = ? WHERE tenant = ? AND size = ?")) {
            p.setBytes(1, note);
            p.setString(2, tenant);
            p.setLong(3, size);
            p.executeUpdate();
        }
    }

    @Override
    public List<StoredCheckpoint> checkpoints(long fromSize, long toSize) {
        return transaction("read", c -> {
            List<StoredCheckpoint> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT size, note FROM ledger_checkpoints WHERE tenant = ? AND size BETWEEN ? AND ? ORDER BY size")) {
                p.setString(1, tenant);
                p.setLong(2, fromSize);
                p.setLong(3, toSize);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        out.add(new StoredCheckpoint(rs.getLong(1), rs.getBytes(2)));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public StoredCheckpoint latestCheckpoint() {
        return transaction("read", c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT size, note FROM ledger_checkpoints WHERE tenant = ? ORDER BY size DESC LIMIT 1")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? new StoredCheckpoint(rs.getLong(1), rs.getBytes(2)) : null;
                }
            }
        });
    }

    @Override
    public WitnessState witnessState(String witness) {
        ensureWritable();
        return transaction("read", c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT size, frontier FROM ledger_witness_state WHERE tenant = ? AND witness = ?")) {
                p.setString(1, tenant);
                p.setString(2, witness);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? WitnessState.stored(rs.getLong(1), rs.getBytes(2)) : null;
                }
            }
        });
    }

    @Override
    public void putWitnessState(String witness, WitnessState state) {
        ensureWritable();
        transaction("storing a witness's state", c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO ledger_witness_state (tenant, witness, size, frontier)"
                    + " VALUES (?, ?, ?, ?) ON CONFLICT (tenant, witness) DO UPDATE SET size = EXCLUDED.size, frontier = EXCLUDED.frontier")) {
                p.setString(1, tenant);
                p.setString(2, witness);
                p.setLong(3, state.size());
                p.setBytes(4, state.encodedFrontier());
                p.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public boolean addSignatureLine(long size, String line, Predicate<String> replaces) {
        ensureWritable();
        return transaction("storing a cosignature of checkpoint " + size, c -> {
            byte[] note = lockedNote(c, size);
            if (note == null) {
                return false;
            }
            updateNote(c, size, NoteLines.withLine(note, line, replaces));
            return true;
        });
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public String storedOrigin() {
        return transaction("read", c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT origin FROM ledger_heads WHERE tenant = ?")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        });
    }

    @Override
    public void storeOrigin(String origin) {
        if (readOnly) {
            throw new IllegalStateException("a read-only ledger store");
        }
        String stored = transaction("storing the origin", c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE ledger_heads SET origin = ? WHERE tenant = ? AND origin IS NULL")) {
                p.setString(1, origin);
                p.setString(2, tenant);
                p.executeUpdate();
            }
            try (PreparedStatement p = c.prepareStatement("SELECT origin FROM ledger_heads WHERE tenant = ?")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        });
        if (!origin.equals(stored)) {
            throw new IllegalStateException("the ledger's origin is fixed");
        }
    }

    @Override
    public long size() {
        return transaction("read", c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT next_seq FROM ledger_heads WHERE tenant = ?")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next()) {
                        throw new LedgerStoreException("no ledger for tenant '" + tenant + "' in the shared database");
                    }
                    return rs.getLong(1);
                }
            }
        });
    }

    @Override
    public long lastSeq() {
        return size() - 1;
    }

    @Override
    public byte[] lastHash() {
        return transaction("read", c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT last_hash FROM ledger_heads WHERE tenant = ?")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? rs.getBytes(1) : EntryHash.GENESIS.clone();
                }
            }
        });
    }

    @Override
    public void refresh() {
        // nothing cached: every read asks the database
    }

    @Override
    public LedgerStore reader() {
        return openReadOnly(db, tenant);
    }

    @Override
    public String tenant() {
        return tenant;
    }

    @Override
    public String location() {
        return "the shared database's ledger tables (tenant '" + tenant + "')";
    }

    private void ensureWritable() {
        if (readOnly) {
            throw new IllegalStateException("ledger store " + location() + " is open for reading only");
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
