package dev.cloakgate.ledger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;
import dev.cloakgate.store.LockFile;
import dev.cloakgate.store.OwnerOnly;
import dev.cloakgate.store.Sqlite;

/**
 * One tenant's ledger in SQLite: {@code {dataDir}/ledger/{tenant}.db}, one row per entry (seq, entry hash, exact
 * RFC 8785 bytes), plus a meta table naming the tenant and format.
 *
 * <p><b>Crash safety.</b> The database runs in WAL mode and every {@link #append} is one transaction: a process
 * killed at any moment (kill -9) leaves each batch either wholly committed or wholly absent, so the chain always
 * verifies. {@code synchronous=FULL}: in WAL mode NORMAL is already all-or-nothing against a process crash (the
 * WAL lives in the OS page cache, which survives the process), but on power loss or an OS crash it may drop the
 * last committed transactions, i.e. entries whose callers were told they were recorded. FULL fsyncs the WAL at
 * every commit so a committed entry survives power loss too; group commit ({@link LedgerWriter}) spreads that
 * fsync over hundreds of entries, so it costs little.
 *
 * <p><b>One writer.</b> For its whole life the store holds an exclusive OS lock on
 * {@code {dataDir}/ledger/{tenant}.lock}; a second store on the same files, in this process or another, gets a
 * {@link LedgerLockedException}. The OS releases the lock when the process dies, even by SIGKILL.
 *
 * <p>Methods are synchronized: one JDBC connection, one writer.
 */
public final class SqliteLedgerStore implements LedgerStore {
    private final String tenant;
    private final Path dbFile;
    private final Path lockFile;
    private final Clock clock;
    /** Held for the store's life; null for a read-only store. */
    private final LockFile lock;
    private final Connection db;
    private final boolean readOnly;
    private long nextSeq;
    private byte[] lastHash;
    private boolean closed;

    private SqliteLedgerStore(String tenant, Path dbFile, Path lockFile, Clock clock, LockFile lock, Connection db, boolean readOnly) {
        this.readOnly = readOnly;
        this.tenant = tenant;
        this.dbFile = dbFile;
        this.lockFile = lockFile;
        this.clock = clock;
        this.lock = lock;
        this.db = db;
    }

    public static SqliteLedgerStore open(Path dataDir, String tenant) {
        return open(dataDir, tenant, Clock.systemUTC());
    }

    public static SqliteLedgerStore open(Path dataDir, String tenant, Clock clock) {
        EntryEnvelope.requireTenant(tenant);
        Path dir = dataDir.resolve("ledger");
        Path dbFile = dir.resolve(tenant + ".db");
        Path lockFile = dir.resolve(tenant + ".lock");
        LockFile lock = null;
        Connection db = null;
        try {
            // owner-only from the start (SQLite gives its -wal and -shm files the database file's mode): the
            // entries name principals, tools and decisions, which other users of the host have no business reading
            OwnerOnly.directories(dir);
            lock = LockFile.acquire(lockFile, holder -> new LedgerLockedException(lockFile, holder));
            OwnerOnly.file(dbFile);
            db = Sqlite.connect(dbFile, new java.util.Properties());
            SqliteLedgerStore store = new SqliteLedgerStore(tenant, dbFile, lockFile, clock, lock, db, false);
            store.init();
            return store;
        } catch (IOException | SQLException | RuntimeException e) {
            Sqlite.closeQuietly(db);
            if (lock != null) {
                lock.close();
            }
            if (e instanceof LedgerStoreException || e instanceof IllegalArgumentException) {
                throw (RuntimeException) e;
            }
            throw new LedgerStoreException("cannot open ledger " + dbFile + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens an existing ledger for reading only, without its lock, so an export can run beside the gateway that
     * writes it: SQLite's WAL gives this connection a consistent snapshot per read while the writer commits.
     */
    public static SqliteLedgerStore openReadOnly(Path dataDir, String tenant) {
        EntryEnvelope.requireTenant(tenant);
        Path dir = dataDir.resolve("ledger");
        Path dbFile = dir.resolve(tenant + ".db");
        if (!Files.isRegularFile(dbFile)) {
            throw new LedgerStoreException("no ledger for tenant '" + tenant + "' at " + dbFile);
        }
        Connection db = null;
        try {
            org.sqlite.SQLiteConfig c = new org.sqlite.SQLiteConfig();
            c.setReadOnly(true);
            db = Sqlite.connect(dbFile, c.toProperties());
            SqliteLedgerStore store = new SqliteLedgerStore(tenant, dbFile, dir.resolve(tenant + ".lock"), Clock.systemUTC(), null, db, true);
            store.initReadOnly();
            return store;
        } catch (SQLException | RuntimeException e) {
            Sqlite.closeQuietly(db);
            if (e instanceof LedgerStoreException) {
                throw (RuntimeException) e;
            }
            throw new LedgerStoreException("cannot open ledger " + dbFile + " for reading: " + e.getMessage(), e);
        }
    }

    private void initReadOnly() throws SQLException {
        db.setAutoCommit(false);
        String storedTenant = meta("tenant");
        if (!tenant.equals(storedTenant)) {
            throw new LedgerStoreException(dbFile + " holds the ledger of tenant '" + storedTenant + "', not '" + tenant + "'");
        }
        if (!Integer.toString(FORMAT).equals(meta("format"))) {
            throw new LedgerStoreException(dbFile + " has ledger format " + meta("format") + "; this gateway reads " + FORMAT);
        }
        loadTail();
        db.commit();
    }

    /** Re-reads the tail a writer may have moved since (read-only stores only). */
    public synchronized void refresh() {
        if (!readOnly) {
            return;
        }
        try {
            loadTail();
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": read failed: " + e.getMessage(), e);
        }
    }

    private void init() throws SQLException {
        Sqlite.requireWal(db, dbFile);
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA synchronous=FULL");
            s.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS entries (seq INTEGER PRIMARY KEY, hash BLOB NOT NULL, bytes BLOB NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS checkpoints (size INTEGER PRIMARY KEY, note BLOB NOT NULL)");
            // issue 15: per witness (its key's name and ID), the size it last cosigned and the tree's frontier there
            s.execute("CREATE TABLE IF NOT EXISTS witness_state (witness TEXT PRIMARY KEY, size INTEGER NOT NULL, frontier BLOB)");
        }
        db.setAutoCommit(false);
        String storedTenant = meta("tenant");
        if (storedTenant == null) {
            try (PreparedStatement p = db.prepareStatement("INSERT INTO meta (key, value) VALUES (?, ?)")) {
                p.setString(1, "tenant");
                p.setString(2, tenant);
                p.addBatch();
                p.setString(1, "format");
                p.setString(2, Integer.toString(FORMAT));
                p.addBatch();
                p.executeBatch();
            }
            db.commit();
        } else if (!storedTenant.equals(tenant)) {
            throw new LedgerStoreException(dbFile + " holds the ledger of tenant '" + storedTenant + "', not '" + tenant + "'");
        } else if (!Integer.toString(FORMAT).equals(meta("format"))) {
            throw new LedgerStoreException(dbFile + " has ledger format " + meta("format") + "; this gateway reads " + FORMAT);
        }
        loadTail();
        db.commit();
    }

    private String meta(String key) throws SQLException {
        try (PreparedStatement p = db.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Continues the chain from the last stored entry, after checking that its stored hash is its bytes' hash. */
    private void loadTail() throws SQLException {
        try (Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT seq, hash, bytes, (SELECT count(*) FROM entries) FROM entries ORDER BY seq DESC LIMIT 1")) {
            if (!rs.next()) {
                nextSeq = 0;
                lastHash = EntryHash.GENESIS;
                return;
            }
            long seq = rs.getLong(1);
            byte[] hash = rs.getBytes(2);
            byte[] bytes = rs.getBytes(3);
            long count = rs.getLong(4);
            String where = dbFile + ": last entry (seq " + seq + ")";
            if (count != seq + 1) {
                throw new LedgerStoreException(dbFile + ": " + count + " entries stored but the last has seq " + seq
                        + "; entries are missing, refusing to continue the chain");
            }
            if (!Arrays.equals(EntryHash.of(bytes), hash)) {
                throw new LedgerStoreException(where + ": stored hash is not the hash of its bytes; the ledger is damaged, refusing to continue the chain");
            }
            StrictJson read = Jcs.parseStrict(bytes);
            if (!(read instanceof StrictJson.Parsed parsed) || !Jcs.isCanonical(bytes)) {
                throw new LedgerStoreException(where + ": bytes are not a canonical JSON entry; the ledger is damaged");
            }
            JsonNode e = parsed.value();
            if (e.path("seq").asLong(-1) != seq || !tenant.equals(e.path("tenant").asText())) {
                throw new LedgerStoreException(where + ": entry's own seq/tenant disagree with its row; the ledger is damaged");
            }
            nextSeq = seq + 1;
            lastHash = hash;
        }
    }

    /**
     * Appends the bodies (each the kind's fields plus {@code kind}) as consecutive entries in ONE transaction:
     * all are stored or, if any fails (a body that has no canonical form, a disk error), none is and the chain
     * stays where it was.
     */
    public synchronized List<Appended> append(List<ObjectNode> bodies) {
        ensureWritable();
        if (bodies.isEmpty()) {
            return List.of();
        }
        List<EntryEnvelope.Sealed> sealed = EntryEnvelope.chain(tenant, bodies, nextSeq, EntryEnvelope.ts(clock.instant()), lastHash);
        List<Appended> out = new ArrayList<>(bodies.size());
        try (PreparedStatement p = db.prepareStatement("INSERT INTO entries (seq, hash, bytes) VALUES (?, ?, ?)")) {
            for (EntryEnvelope.Sealed e : sealed) {
                p.setLong(1, e.seq());
                p.setBytes(2, e.hash());
                p.setBytes(3, e.bytes());
                p.executeUpdate();
                out.add(e.appended());
            }
            db.commit();
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly();
            if (e instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new LedgerStoreException(dbFile + ": append of " + bodies.size() + " entries failed, none stored: " + e.getMessage(), e);
        }
        EntryEnvelope.Sealed last = sealed.get(sealed.size() - 1);
        nextSeq = last.seq() + 1;
        lastHash = last.hash();
        return out;
    }

    /** The exact stored bytes of entries {@code fromSeq..toSeqInclusive}, in seq order. */
    public List<byte[]> read(long fromSeq, long toSeqInclusive) {
        return column("bytes", fromSeq, toSeqInclusive, 1 << 20);
    }

    // one column of a seq range in one query; the column name is one of this class's constants, never input
    private synchronized List<byte[]> column(String column, long fromSeq, long toSeqInclusive, int maxPresize) {
        ensureOpen();
        if (fromSeq < 0 || toSeqInclusive < fromSeq - 1 || toSeqInclusive >= nextSeq) {
            throw new IndexOutOfBoundsException("entries " + fromSeq + ".." + toSeqInclusive + " of " + nextSeq);
        }
        List<byte[]> out = new ArrayList<>((int) Math.min(toSeqInclusive - fromSeq + 1, maxPresize));
        try (PreparedStatement p = db.prepareStatement("SELECT " + column + " FROM entries WHERE seq BETWEEN ? AND ? ORDER BY seq")) {
            p.setLong(1, fromSeq);
            p.setLong(2, toSeqInclusive);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getBytes(1));
                }
            }
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": read failed: " + e.getMessage(), e);
        }
        return out;
    }

    /** The stored entry hash of {@code seq}. */
    public synchronized byte[] hash(long seq) {
        ensureOpen();
        if (seq < 0 || seq >= nextSeq) {
            throw new IndexOutOfBoundsException("entry " + seq + " of " + nextSeq);
        }
        try (PreparedStatement p = db.prepareStatement("SELECT hash FROM entries WHERE seq = ?")) {
            p.setLong(1, seq);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    throw new LedgerStoreException(dbFile + ": entry " + seq + " is missing");
                }
                byte[] h = rs.getBytes(1);
                db.commit();
                return h;
            }
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": read failed: " + e.getMessage(), e);
        }
    }

    /** The stored hashes of entries {@code fromSeq..toSeqInclusive}, in seq order, in one query. */
    public List<byte[]> hashes(long fromSeq, long toSeqInclusive) {
        return column("hash", fromSeq, toSeqInclusive, 1 << 24);
    }

    /**
     * Stores a signed checkpoint of the first {@code size} entries ({@code 1 <= size <= size()}). The store does
     * not check the signature or the root: the caller (the ledger's checkpointer) made both. Storing a second
     * note for a size already checkpointed replaces the first (a re-signing after a key rotation).
     */
    public synchronized void putCheckpoint(long size, byte[] note) {
        ensureWritable();
        if (size < 1 || size > nextSeq) {
            throw new IllegalArgumentException("checkpoint size " + size + " is outside 1.." + nextSeq);
        }
        try (PreparedStatement p = db.prepareStatement("INSERT OR REPLACE INTO checkpoints (size, note) VALUES (?, ?)")) {
            p.setLong(1, size);
            p.setBytes(2, note);
            p.executeUpdate();
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": storing the checkpoint of size " + size + " failed: " + e.getMessage(), e);
        }
    }

    /** Stored checkpoints with {@code fromSize <= size <= toSize}, smallest first. */
    public synchronized List<StoredCheckpoint> checkpoints(long fromSize, long toSize) {
        ensureOpen();
        List<StoredCheckpoint> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("SELECT size, note FROM checkpoints WHERE size BETWEEN ? AND ? ORDER BY size")) {
            p.setLong(1, fromSize);
            p.setLong(2, toSize);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredCheckpoint(rs.getLong(1), rs.getBytes(2)));
                }
            }
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": read failed: " + e.getMessage(), e);
        }
        return out;
    }

    /** The stored checkpoint with the largest size, or null when none exists. */
    public synchronized StoredCheckpoint latestCheckpoint() {
        ensureOpen();
        try (Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT size, note FROM checkpoints ORDER BY size DESC LIMIT 1")) {
            StoredCheckpoint c = rs.next() ? new StoredCheckpoint(rs.getLong(1), rs.getBytes(2)) : null;
            db.commit();
            return c;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": read failed: " + e.getMessage(), e);
        }
    }

    // ---- issue 15, witness cosigning ----

    /** The recorded state of {@code witness}, or null when it never cosigned (or answered) for this log. */
    public synchronized WitnessState witnessState(String witness) {
        ensureWritable();
        try (PreparedStatement p = db.prepareStatement("SELECT size, frontier FROM witness_state WHERE witness = ?")) {
            p.setString(1, witness);
            WitnessState out = null;
            try (ResultSet rs = p.executeQuery()) {
                if (rs.next()) {
                    out = WitnessState.stored(rs.getLong(1), rs.getBytes(2));
                }
            }
            db.commit();
            return out;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": read failed: " + e.getMessage(), e);
        }
    }

    public synchronized void putWitnessState(String witness, WitnessState state) {
        ensureWritable();
        try (PreparedStatement p = db.prepareStatement("INSERT OR REPLACE INTO witness_state (witness, size, frontier) VALUES (?, ?, ?)")) {
            p.setString(1, witness);
            p.setLong(2, state.size());
            byte[] frontier = state.encodedFrontier();
            if (frontier == null) {
                p.setNull(3, java.sql.Types.BLOB);
            } else {
                p.setBytes(3, frontier);
            }
            p.executeUpdate();
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": storing a witness's state failed: " + e.getMessage(), e);
        }
    }

    /**
     * Adds a signature line (a witness's cosignature, without its newline) to the stored checkpoint of {@code size},
     * first dropping the lines {@code replaces} matches (the same witness's earlier cosignature). False when no
     * checkpoint of that size is stored. The checkpoint's own signature is untouched: signed-note verifiers skip
     * lines of keys they do not know.
     */
    public synchronized boolean addSignatureLine(long size, String line, java.util.function.Predicate<String> replaces) {
        ensureWritable();
        try (PreparedStatement read = db.prepareStatement("SELECT note FROM checkpoints WHERE size = ?");
                PreparedStatement write = db.prepareStatement("UPDATE checkpoints SET note = ? WHERE size = ?")) {
            read.setLong(1, size);
            byte[] note;
            try (ResultSet rs = read.executeQuery()) {
                note = rs.next() ? rs.getBytes(1) : null;
            }
            if (note == null) {
                db.commit();
                return false;
            }
            write.setBytes(1, NoteLines.withLine(note, line, replaces));
            write.setLong(2, size);
            write.executeUpdate();
            db.commit();
            return true;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": storing a cosignature of checkpoint " + size + " failed: " + e.getMessage(), e);
        }
    }
    // ---- end issue 15 ----

    public boolean readOnly() {
        return readOnly;
    }

    /** Number of entries stored (the next seq). */
    // ---- issue 15, log identity: the origin is fixed when the ledger is created and kept with it ----
    /** The checkpoint origin stored with this ledger, or null for a ledger created before origins were stored. */
    public synchronized String storedOrigin() {
        try {
            String o = meta("origin");
            db.commit();
            return o;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": read failed: " + e.getMessage(), e);
        }
    }

    /** Stores the origin once; a ledger's origin never changes, so a second, different one is refused. */
    @Override
    public synchronized void storeOrigin(String origin) {
        if (readOnly) {
            throw new IllegalStateException("a read-only ledger store");
        }
        try {
            String before = meta("origin");
            if (before == null) {
                try (PreparedStatement p = db.prepareStatement("INSERT INTO meta (key, value) VALUES ('origin', ?)")) {
                    p.setString(1, origin);
                    p.executeUpdate();
                }
            }
            db.commit();
            if (before != null && !before.equals(origin)) {
                throw new IllegalStateException("the ledger's origin is fixed");
            }
        } catch (SQLException e) {
            rollbackQuietly();
            throw new LedgerStoreException(dbFile + ": cannot store the origin: " + e.getMessage(), e);
        }
    }
    // ---- end issue 15, log identity ----

    public synchronized long size() {
        return nextSeq;
    }

    /** Seq of the last entry, -1 when empty. */
    public synchronized long lastSeq() {
        return nextSeq - 1;
    }

    /** Hash of the last entry, {@link EntryHash#GENESIS} when empty. */
    public synchronized byte[] lastHash() {
        return lastHash.clone();
    }

    public String tenant() {
        return tenant;
    }

    public Path dbFile() {
        return dbFile;
    }

    @Override
    public String location() {
        return dbFile.toString();
    }

    /** A read-only store of its own on the same file (SQLite's WAL gives it snapshots while this one writes). */
    @Override
    public LedgerStore reader() {
        return openReadOnly(dbFile.getParent().getParent(), tenant);
    }

    /** One writer holds the file, so the latest checkpoint alone decides: the rotation is appended as is. */
    @Override
    public List<Appended> appendRotation(ObjectNode entry, String keyId) {
        return append(List.of(entry));
    }

    public Path lockFile() {
        return lockFile;
    }

    private void ensureWritable() {
        ensureOpen();
        if (readOnly) {
            throw new IllegalStateException("ledger store " + dbFile + " is open for reading only");
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("ledger store " + dbFile + " is closed");
        }
    }

    private void rollbackQuietly() {
        try {
            db.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; nothing was committed
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            db.close();
        } catch (SQLException e) {
            throw new LedgerStoreException(dbFile + ": close failed: " + e.getMessage(), e);
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }
}
