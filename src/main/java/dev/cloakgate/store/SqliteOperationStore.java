package dev.cloakgate.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import org.sqlite.SQLiteConfig;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tenant's operations in SQLite: {@code {dataDir}/operations/{tenant}.db}, one row per operation, plus a meta
 * table naming the store, the tenant and the format.
 *
 * <p><b>Owner-only.</b> The file keeps what upstreams returned (cloaked) for replay, so its directory is created
 * 0700 and the file 0600 before SQLite opens it; SQLite gives its {@code -wal} and {@code -shm} files the
 * database's permissions.
 *
 * <p><b>Durable before forwarding.</b> WAL mode, {@code synchronous=FULL}: a {@link #begin} that returned has its
 * row fsynced, so a call is never forwarded without a record that survives power loss. Every method is one
 * transaction, begun IMMEDIATE (the write lock taken first), so a check and the write it decides are never split
 * by another writer. {@link #settle} alone commits without its own fsync ({@code synchronous=NORMAL}: whole or
 * absent after a process crash, like every commit in WAL mode): losing it to a power cut before the next fsynced
 * commit leaves the call {@code in_flight}, which the next start sweeps to {@code unknown}, the cautious state;
 * it is never forwarded again because of it. That halves the fsyncs on the path of a call.
 *
 * <p><b>One gateway, any number of operators.</b> {@link #openForGateway} holds an exclusive OS lock on
 * {@code {dataDir}/operations/{tenant}.lock} for its life (a second gateway would sweep the first one's calls to
 * unknown) and sweeps what a previous process left {@code in_flight}. {@link #openForOperator} takes no lock, so
 * {@code operations list} and {@code reconcile} run beside the gateway; the two connections wait for each other's
 * short transactions ({@code busy_timeout}).
 *
 * <p>Methods are synchronized: one JDBC connection per store.
 */
public final class SqliteOperationStore implements OperationStore {
    public static final int FORMAT = 1;
    static final String KIND = "operations";
    /** How long a transaction waits for the other side's (the operator's or the gateway's) to end. */
    static final int BUSY_TIMEOUT_MILLIS = 5_000;
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String COLUMNS = "id, tool, upstream, session, state, attempts, created_at, updated_at, approval, task_id,"
            + " reconciled_by, reconciled_at, result IS NOT NULL";

    private final String tenant;
    private final Path dbFile;
    private final Path lockFile;
    private final Clock clock;
    /** Held for the store's life by a gateway's store; null for an operator's. */
    private final LockFile lock;
    private final Connection db;
    private List<String> sweptAtOpen = List.of();
    private boolean closed;

    private SqliteOperationStore(String tenant, Path dbFile, Path lockFile, Clock clock, LockFile lock, Connection db) {
        this.tenant = tenant;
        this.dbFile = dbFile;
        this.lockFile = lockFile;
        this.clock = clock;
        this.lock = lock;
        this.db = db;
    }

    public static SqliteOperationStore openForGateway(Path dataDir, String tenant) {
        return openForGateway(dataDir, tenant, Clock.systemUTC());
    }

    /**
     * The gateway's store: creates the file owner-only if absent, takes the lock (else {@link StoreLockedException}
     * naming the lock file and its holder's pid), checks the file is this tenant's operations store in this format,
     * and sweeps {@code in_flight} rows to {@code unknown} ({@link #sweptAtOpen()}).
     */
    public static SqliteOperationStore openForGateway(Path dataDir, String tenant, Clock clock) {
        Path dir = dir(dataDir, tenant);
        Path dbFile = dir.resolve(tenant + ".db");
        Path lockFile = dir.resolve(tenant + ".lock");
        LockFile lock = null;
        Connection db = null;
        try {
            OwnerOnly.directories(dir);
            lock = LockFile.acquire(lockFile, holder -> new StoreLockedException(lockFile, holder, "operations store"));
            OwnerOnly.file(dbFile);
            db = Sqlite.connect(dbFile, config().toProperties());
            SqliteOperationStore store = new SqliteOperationStore(tenant, dbFile, lockFile, clock, lock, db);
            store.init(true);
            store.sweptAtOpen = store.sweepIds();
            return store;
        } catch (IOException | SQLException | RuntimeException e) {
            Sqlite.closeQuietly(db);
            if (lock != null) {
                lock.close();
            }
            throw failure(e, "cannot open operations store " + dbFile);
        }
    }

    public static SqliteOperationStore openForOperator(Path dataDir, String tenant) {
        return openForOperator(dataDir, tenant, Clock.systemUTC());
    }

    /**
     * An operator's store beside a running gateway ({@code operations list}, {@code reconcile}): no lock, no sweep,
     * and no {@link #begin}/{@link #settle}/{@link #markUnknown}. The file must exist: the gateway creates it.
     */
    public static SqliteOperationStore openForOperator(Path dataDir, String tenant, Clock clock) {
        Path dir = dir(dataDir, tenant);
        Path dbFile = dir.resolve(tenant + ".db");
        if (!Files.isRegularFile(dbFile)) {
            throw new StoreException("no operations store for tenant '" + tenant + "' at " + dbFile
                    + "; a gateway creates it when it opens the tenant, so check cloakgate.data-dir and the tenant name");
        }
        Connection db = null;
        try {
            db = Sqlite.connect(dbFile, config().toProperties());
            SqliteOperationStore store = new SqliteOperationStore(tenant, dbFile, dir.resolve(tenant + ".lock"), clock, null, db);
            store.init(false);
            return store;
        } catch (SQLException | RuntimeException e) {
            Sqlite.closeQuietly(db);
            throw failure(e, "cannot open operations store " + dbFile);
        }
    }

    /** The directory of every tenant's operations store, once the tenant is known to be a safe file name. */
    private static Path dir(Path dataDir, String tenant) {
        if (tenant == null || !TENANT.matcher(tenant).matches()) {
            throw new IllegalArgumentException("a tenant id for the operations store is 1-64 of [A-Za-z0-9._-], starting alphanumeric");
        }
        return dataDir.resolve("operations");
    }

    private static SQLiteConfig config() {
        SQLiteConfig c = new SQLiteConfig();
        c.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        c.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        return c;
    }

    private static RuntimeException failure(Exception e, String what) {
        if (e instanceof StoreException || e instanceof IllegalArgumentException || e instanceof OperationRefusedException) {
            return (RuntimeException) e;
        }
        return new StoreException(what + ": " + e.getMessage(), e);
    }

    private void init(boolean create) throws SQLException {
        Sqlite.requireWal(db, dbFile);
        transaction("opening", () -> {
            createOrCheck(create);
            return null;
        });
    }

    private void createOrCheck(boolean create) throws SQLException {
        try (Statement s = db.createStatement()) {
            boolean empty;
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master")) {
                empty = rs.next() && rs.getLong(1) == 0;
            }
            if (empty && create) {
                s.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
                s.execute("CREATE TABLE operations (id TEXT PRIMARY KEY, tool TEXT NOT NULL, upstream TEXT NOT NULL, session TEXT,"
                        + " state TEXT NOT NULL CHECK (state IN ('in_flight', 'done', 'failed', 'unknown', 'not_applied')),"
                        + " attempts INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, approval TEXT,"
                        + " task_id TEXT, reconciled_by TEXT, reconciled_at TEXT, result BLOB)");
                // only the states a sweep or an operator looks for: a table of millions of done rows keeps it small
                s.execute("CREATE INDEX operations_open ON operations (state) WHERE state IN ('in_flight', 'unknown')");
                s.execute("INSERT INTO meta (key, value) VALUES ('store', '" + KIND + "'), ('format', '" + FORMAT + "')");
                try (PreparedStatement p = db.prepareStatement("INSERT INTO meta (key, value) VALUES ('tenant', ?)")) {
                    p.setString(1, tenant);
                    p.executeUpdate();
                }
            } else {
                checkMeta(empty);
            }
            if (!empty || create) {
                // an outbox: a reconciliation made beside the gateway (the command) is put on its ledger by the gateway,
                // which holds the ledger; written in the reconcile's own transaction, so none is lost to a crash
                s.execute("CREATE TABLE IF NOT EXISTS reconciliations (seq INTEGER PRIMARY KEY AUTOINCREMENT,"
                        + " operation_id TEXT NOT NULL, state TEXT NOT NULL, by_whom TEXT NOT NULL, at TEXT NOT NULL,"
                        + " recorded INTEGER NOT NULL DEFAULT 0)");
            }
        }
    }

    /** One step of work inside a transaction. */
    private interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction begun IMMEDIATE: the write lock is taken before the first read, so
     * nothing another connection commits can fall between what {@code work} reads and what it writes. Rolled back
     * whole on any failure. (Explicit BEGIN/COMMIT on a connection in auto-commit mode: the driver's own
     * transactions begin the next one at every commit, which would hold the lock between calls.)
     */
    private <T> T transaction(String what, Work<T> work) {
        try (Statement s = db.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            T out = work.run();
            s.execute("COMMIT");
            return out;
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly();
            throw failure(e, dbFile + ": " + what);
        }
    }

    /** {@link #transaction} committed without waiting for the disk (see the class comment: what may be lost). */
    private <T> T unsyncedTransaction(String what, Work<T> work) {
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA synchronous=NORMAL");
            try {
                return transaction(what, work);
            } finally {
                s.execute("PRAGMA synchronous=FULL");
            }
        } catch (SQLException e) {
            throw failure(e, dbFile + ": " + what);
        }
    }

    /** Refuses a file that is not this tenant's operations store in this format (a copied or misplaced file). */
    private void checkMeta(boolean empty) throws SQLException {
        boolean hasMeta;
        try (Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'")) {
            hasMeta = rs.next() && rs.getLong(1) == 1;
        }
        String kind = hasMeta ? meta("store") : null;
        if (!KIND.equals(kind)) {
            throw new StoreException(dbFile + (empty ? " is empty" : " is not an operations store")
                    + "; refusing to use it (a gateway creates the store when it opens the tenant)");
        }
        String storedTenant = meta("tenant");
        if (!tenant.equals(storedTenant)) {
            throw new StoreException(dbFile + " holds the operations of tenant '" + storedTenant + "', not '" + tenant + "'");
        }
        if (!Integer.toString(FORMAT).equals(meta("format"))) {
            throw new StoreException(dbFile + " has operations store format " + meta("format") + "; this gateway reads " + FORMAT);
        }
    }

    private String meta(String key) throws SQLException {
        try (PreparedStatement p = db.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Override
    public synchronized Begin begin(String operationId, Start start) {
        ensureGateway();
        OperationRules.checkId(operationId);
        OperationRules.checkTenant(tenant, start);
        String now = now();
        byte[][] stored = new byte[1][];
        Begin out = transaction("begin of operation " + operationId + " failed, nothing recorded", () -> {
            String state = null;
            String tool = null;
            int attempts = 0;
            try (PreparedStatement p = db.prepareStatement("SELECT state, tool, attempts, result FROM operations WHERE id = ?")) {
                p.setString(1, operationId);
                try (ResultSet rs = p.executeQuery()) {
                    if (rs.next()) {
                        state = rs.getString(1);
                        tool = rs.getString(2);
                        attempts = rs.getInt(3);
                        stored[0] = rs.getBytes(4);
                    }
                }
            }
            if (state == null) {
                try (PreparedStatement p = db.prepareStatement("INSERT INTO operations (id, tool, upstream, session, state, attempts,"
                        + " created_at, updated_at, approval, task_id) VALUES (?, ?, ?, ?, 'in_flight', 1, ?, ?, ?, ?)")) {
                    p.setString(1, operationId);
                    p.setString(2, start.tool());
                    p.setString(3, start.upstream());
                    p.setString(4, start.session());
                    p.setString(5, now);
                    p.setString(6, now);
                    p.setString(7, start.approval());
                    p.setString(8, start.taskId());
                    p.executeUpdate();
                }
                return new Begin.Started(1);
            }
            OperationRules.checkSameTool(operationId, tool, OperationState.fromWire(state), start);
            return OperationRules.decide(OperationState.fromWire(state), attempts, stored[0] != null, () -> {
                try (PreparedStatement p = db.prepareStatement("UPDATE operations SET state = 'in_flight', attempts = attempts + 1,"
                        + " upstream = ?, session = ?, approval = ?, task_id = ?, updated_at = ?, result = NULL,"
                        + " reconciled_by = NULL, reconciled_at = NULL WHERE id = ?")) {
                    p.setString(1, start.upstream());
                    p.setString(2, start.session());
                    p.setString(3, start.approval());
                    p.setString(4, start.taskId());
                    p.setString(5, now);
                    p.setString(6, operationId);
                    p.executeUpdate();
                }
            });
        });
        // parsed outside the transaction: the write lock is not held for the size of a result
        return out != null ? out : new Begin.Replay(StoredResults.parse(stored[0], operationId, dbFile.toString()));
    }

    @Override
    public synchronized Settled settle(String operationId, OperationState outcome, JsonNode cloakedResult) {
        ensureGateway();
        OperationRules.checkSettle(outcome, cloakedResult);
        byte[] result = outcome == OperationState.DONE ? StoredResults.bytes(cloakedResult) : null;
        return unsyncedTransaction("settling operation " + operationId + " as " + outcome + " failed", () -> {
            try (PreparedStatement p = db.prepareStatement(
                    "UPDATE operations SET state = ?, result = ?, updated_at = ? WHERE id = ? AND state = 'in_flight'")) {
                p.setString(1, outcome.wire());
                p.setBytes(2, result);
                p.setString(3, now());
                p.setString(4, operationId);
                if (p.executeUpdate() == 1) {
                    return new Settled.Recorded(outcome);
                }
            }
            Operation now = row(operationId).orElseThrow(() -> OperationRules.notFound(operationId));
            return new Settled.Kept(now.state(), now.reconciledBy());
        });
    }

    @Override
    public synchronized OperationState markUnknown(String operationId) {
        ensureGateway();
        return transaction("marking operation " + operationId + " unknown failed", () -> {
            try (PreparedStatement p = db.prepareStatement(
                    "UPDATE operations SET state = 'unknown', updated_at = ? WHERE id = ? AND state = 'in_flight'")) {
                p.setString(1, now());
                p.setString(2, operationId);
                p.executeUpdate();
            }
            return row(operationId).orElseThrow(() -> OperationRules.notFound(operationId)).state();
        });
    }

    @Override
    public synchronized int sweep() {
        return sweepIds().size();
    }

    private List<String> sweepIds() {
        ensureGateway();
        return transaction("the startup sweep of in_flight operations failed", () -> {
            List<String> ids = new ArrayList<>();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM operations WHERE state = 'in_flight'")) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            if (!ids.isEmpty()) {
                try (PreparedStatement p = db.prepareStatement("UPDATE operations SET state = 'unknown', updated_at = ? WHERE state = 'in_flight'")) {
                    p.setString(1, now());
                    p.executeUpdate();
                }
            }
            return List.copyOf(ids);
        });
    }

    /**
     * The ids {@link #openForGateway} swept from {@code in_flight} to {@code unknown}: calls a previous process
     * forwarded and never settled, for the gateway to record (a result entry with state {@code unknown}).
     */
    @Override
    public List<String> sweptAtOpen() {
        return sweptAtOpen;
    }

    @Override
    public synchronized List<Operation> list(OperationState state) {
        ensureOpen();
        // the state inlined (an enum's own string, never input) so the partial index serves in_flight and unknown
        String sql = "SELECT " + COLUMNS + " FROM operations" + (state == null ? "" : " WHERE state = '" + state.wire() + "'")
                + " ORDER BY created_at, id";
        // one statement: one snapshot, without taking the write lock
        List<Operation> out = new ArrayList<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(operation(rs));
            }
            return out;
        } catch (SQLException | RuntimeException e) {
            throw failure(e, dbFile + ": listing operations failed");
        }
    }

    @Override
    public synchronized java.util.Map<OperationState, Long> counts() {
        ensureOpen();
        java.util.Map<OperationState, Long> out = new java.util.EnumMap<>(OperationState.class);
        for (OperationState st : OperationState.values()) {
            out.put(st, 0L);
        }
        try (Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT state, count(*) FROM operations GROUP BY state")) {
            while (rs.next()) {
                out.put(OperationState.fromWire(rs.getString(1)), rs.getLong(2));
            }
            return out;
        } catch (SQLException | RuntimeException e) {
            throw failure(e, dbFile + ": counting operations failed");
        }
    }

    @Override
    public synchronized Optional<Operation> get(String operationId) {
        ensureOpen();
        try {
            return row(operationId);
        } catch (SQLException | RuntimeException e) {
            throw failure(e, dbFile + ": reading operation " + operationId + " failed");
        }
    }

    @Override
    public synchronized Operation reconcile(String operationId, Outcome outcome, boolean force, String byWhom) {
        ensureOpen();
        OperationRules.checkByWhom(byWhom);
        return transaction("reconciling operation " + operationId + " failed, nothing changed", () -> {
            Operation op = row(operationId).orElseThrow(() -> OperationRules.notFound(operationId));
            OperationRules.checkReconcilable(operationId, op.state(), force);
            String now = now();
            try (PreparedStatement p = db.prepareStatement("UPDATE operations SET state = ?, result = NULL, reconciled_by = ?,"
                    + " reconciled_at = ?, updated_at = ? WHERE id = ?")) {
                p.setString(1, outcome.state().wire());
                p.setString(2, byWhom);
                p.setString(3, now);
                p.setString(4, now);
                p.setString(5, operationId);
                p.executeUpdate();
            }
            try (PreparedStatement p = db.prepareStatement("INSERT INTO reconciliations (operation_id, state, by_whom, at)"
                    + " VALUES (?, ?, ?, ?)")) {
                p.setString(1, operationId);
                p.setString(2, outcome.state().wire());
                p.setString(3, byWhom);
                p.setString(4, now);
                p.executeUpdate();
            }
            return row(operationId).orElseThrow(() -> OperationRules.notFound(operationId));
        });
    }

    @Override
    public synchronized List<Reconciliation> unrecorded() {
        ensureOpen();
        try (PreparedStatement p = db.prepareStatement("SELECT seq, operation_id, state, by_whom, at FROM reconciliations"
                + " WHERE recorded = 0 ORDER BY seq LIMIT 1000"); ResultSet rs = p.executeQuery()) {
            List<Reconciliation> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(new Reconciliation(rs.getLong(1), rs.getString(2), OperationState.fromWire(rs.getString(3)),
                        rs.getString(4), Instant.parse(rs.getString(5))));
            }
            return out;
        } catch (SQLException | RuntimeException e) {
            throw failure(e, dbFile + ": reading reconciliations failed");
        }
    }

    @Override
    public synchronized void recorded(long seq) {
        ensureOpen();
        transaction("marking reconciliation " + seq + " recorded failed", () -> {
            try (PreparedStatement p = db.prepareStatement("UPDATE reconciliations SET recorded = 1 WHERE seq = ?")) {
                p.setLong(1, seq);
                p.executeUpdate();
            }
            return null;
        });
    }

    private Optional<Operation> row(String operationId) throws SQLException {
        try (PreparedStatement p = db.prepareStatement("SELECT " + COLUMNS + " FROM operations WHERE id = ?")) {
            p.setString(1, operationId);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? Optional.of(operation(rs)) : Optional.empty();
            }
        }
    }

    private static Operation operation(ResultSet rs) throws SQLException {
        String reconciledAt = rs.getString(12);
        return new Operation(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), OperationState.fromWire(rs.getString(5)),
                rs.getInt(6), Instant.parse(rs.getString(7)), Instant.parse(rs.getString(8)), rs.getString(9), rs.getString(10),
                rs.getString(11), reconciledAt == null ? null : Instant.parse(reconciledAt), rs.getBoolean(13));
    }

    private String now() {
        return TS.format(clock.instant());
    }

    public String tenant() {
        return tenant;
    }

    public Path dbFile() {
        return dbFile;
    }

    public Path lockFile() {
        return lockFile;
    }

    /** True for the gateway's store (it holds the lock), false for an operator's. */
    public boolean gateway() {
        return lock != null;
    }

    private void ensureGateway() {
        ensureOpen();
        if (lock == null) {
            throw new IllegalStateException("operations store " + dbFile + " is open for an operator: only the gateway that holds "
                    + lockFile + " records calls or sweeps");
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("operations store " + dbFile + " is closed");
        }
    }

    private void rollbackQuietly() {
        try (Statement s = db.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // no transaction was open, or the connection is broken: nothing was committed either way
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
            throw new StoreException(dbFile + ": close failed: " + e.getMessage(), e);
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }
}
