package dev.cloakgate.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 17: a tenant's operations in the PostgreSQL database the replicas share (tables of {@code V1__operations.sql},
 * migrated by Flyway at start), with the contract of {@link SqliteOperationStore}. Any number of replicas use one
 * tenant's rows at once; each method is one transaction, so the database decides what one process's lock decides in
 * SQLite:
 *
 * <ul>
 * <li><b>One begin wins.</b> {@link #begin} inserts the row if absent ({@code ON CONFLICT DO NOTHING}: a second insert of
 * the same id waits for the first transaction and then inserts nothing), else locks it ({@code FOR UPDATE}) before it
 * reads the state it decides on. The same call sent to two replicas at once is {@code Started} on one and
 * {@code InFlight} on the other.</li>
 * <li><b>Each row names its replica</b> (the one whose process forwarded the latest attempt). {@link #sweep} at start
 * turns only this replica's own {@code in_flight} rows {@code unknown}: a restarted StatefulSet pod keeps its id, and
 * the other replicas' calls are still running.</li>
 * <li><b>Dead replicas.</b> Replicas beat ({@link ReplicaHeartbeat}); {@link #sweepDeadReplicas} turns the
 * {@code in_flight} rows of a replica not seen for {@code deadAfter} (database time, so replicas' clocks do not
 * matter) {@code unknown}, once (a conditional update: of two replicas sweeping at once, one moves each row).</li>
 * <li><b>The outbox</b> of reconciliations is claimed ({@code FOR UPDATE SKIP LOCKED}, for {@link #CLAIM}): each is
 * handed to one replica, which records it on the ledger; a claim that replica never marks {@link #recorded} (it died in
 * between) is handed out again when it runs out.</li>
 * </ul>
 *
 * <p>Durable before forwarding: a begin commits with the server's {@code synchronous_commit} (on by default). A settle
 * commits with {@code synchronous_commit=off}, as the SQLite store's does without its fsync: a settle lost to a server
 * crash leaves the call {@code in_flight}, which becomes {@code unknown}, the cautious state; it is never forwarded
 * again because of it.
 *
 * <p>Thread-safe without locks of its own: each method takes a pooled connection for one transaction.
 */
public final class PostgresOperationStore implements OperationStore {
    /** How long a replica holds the reconciliations it claimed before another may take them. */
    static final Duration CLAIM = Duration.ofSeconds(60);
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final String COLUMNS = "id, tool, upstream, session, state, attempts, created_at, updated_at, approval, task_id,"
            + " reconciled_by, reconciled_at, result IS NOT NULL";

    private final DataSource db;
    private final String tenant;
    private final String replica;
    private final Duration deadAfter;
    private final Clock clock;
    private final String where;
    private List<String> sweptAtOpen = List.of();
    private volatile boolean closed;

    private PostgresOperationStore(DataSource db, String tenant, String replica, Duration deadAfter, Clock clock) {
        this.db = db;
        this.tenant = tenant;
        this.replica = replica;
        this.deadAfter = deadAfter;
        this.clock = clock;
        this.where = "operations store of tenant " + tenant + " (PostgreSQL)";
    }

    /**
     * The store of {@code tenant} for the gateway process of {@code replica}: sweeps what a previous process of the same
     * replica left {@code in_flight} ({@link #sweptAtOpen()}). The tables must exist (Flyway migrates them at start).
     *
     * @param deadAfter how long a replica may be silent before its {@code in_flight} calls are {@code unknown}
     */
    public static PostgresOperationStore openForGateway(DataSource db, String tenant, String replica, Duration deadAfter,
            Clock clock) {
        if (tenant == null || !TENANT.matcher(tenant).matches()) {
            throw new IllegalArgumentException("a tenant id for the operations store is 1-64 of [A-Za-z0-9._-], starting alphanumeric");
        }
        ReplicaHeartbeat.checkReplica(replica);
        if (deadAfter == null || deadAfter.isNegative() || deadAfter.isZero()) {
            throw new IllegalArgumentException("the heartbeat bound is a positive duration");
        }
        PostgresOperationStore store = new PostgresOperationStore(db, tenant, replica, deadAfter, clock);
        store.sweptAtOpen = store.sweepIds();
        return store;
    }

    /**
     * Runs {@code work} in one transaction ({@link Transaction}), rolled back whole on any failure. Read committed: what
     * {@code work} decides on it reads under a row lock ({@code FOR UPDATE}) or in the statement that writes it.
     */
    private <T> T transaction(String what, boolean durable, Transaction.Work<T, RuntimeException> work) {
        ensureOpen();
        try {
            return Transaction.run(db, durable, work);
        } catch (SQLException | RuntimeException e) {
            throw failure(e, where + ": " + what);
        }
    }

    private static RuntimeException failure(Exception e, String what) {
        if (e instanceof StoreException || e instanceof IllegalArgumentException || e instanceof OperationRefusedException) {
            return (RuntimeException) e;
        }
        return new StoreException(what + ": " + e.getMessage(), e);
    }

    @Override
    public Begin begin(String operationId, Start start) {
        OperationRules.checkId(operationId);
        OperationRules.checkTenant(tenant, start);
        OffsetDateTime now = now();
        byte[][] stored = new byte[1][];
        Begin out = transaction("begin of operation " + operationId + " failed, nothing recorded", true, c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO operations (tenant, id, tool, upstream, session, state,"
                    + " attempts, created_at, updated_at, approval, task_id, replica) VALUES (?, ?, ?, ?, ?, 'in_flight', 1, ?, ?, ?, ?, ?)"
                    + " ON CONFLICT (tenant, id) DO NOTHING")) {
                p.setString(1, tenant);
                p.setString(2, operationId);
                p.setString(3, start.tool());
                p.setString(4, start.upstream());
                p.setString(5, start.session());
                p.setObject(6, now);
                p.setObject(7, now);
                p.setString(8, start.approval());
                p.setString(9, start.taskId());
                p.setString(10, replica);
                if (p.executeUpdate() == 1) {
                    return new Begin.Started(1);
                }
            }
            // stored already (or just now, by another replica whose insert committed first). Done, in_flight and unknown
            // are what a begin never changes: decided on a plain read, so a replay writes nothing (a row lock is a write,
            // and its commit would wait for the WAL flush). Failed and not_applied are tried again: under the row's lock
            Begin unlocked = storedDecision(c, operationId, start, now, stored, false);
            return unlocked != RESTART ? unlocked : storedDecision(c, operationId, start, now, stored, true);
        });
        // parsed outside the transaction: the row lock is not held for the size of a result
        return out != null ? out : new Begin.Replay(StoredResults.parse(stored[0], operationId, where));
    }

    /**
     * What {@link #storedDecision} answers, without a lock, for a call that is tried again: decide it under the lock.
     * Compared by identity (a marker, never returned to a caller).
     */
    private static final Begin RESTART = new Begin.InFlight();

    /**
     * The decision on the stored row: under its lock ({@code FOR UPDATE}), or without one, when it answers
     * {@link #RESTART} for a failed or not_applied call rather than record another attempt.
     */
    private Begin storedDecision(Connection c, String operationId, Start start, OffsetDateTime now, byte[][] stored,
            boolean locked) throws SQLException {
        OperationState state;
        String tool;
        int attempts;
        try (PreparedStatement p = c.prepareStatement(
                "SELECT state, tool, attempts, result FROM operations WHERE tenant = ? AND id = ?" + (locked ? " FOR UPDATE" : ""))) {
            p.setString(1, tenant);
            p.setString(2, operationId);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    // inserted and deleted meanwhile: nothing deletes rows, so the store is being tampered with
                    throw new StoreException(where + ": operation " + operationId + " vanished during its begin");
                }
                state = OperationState.fromWire(rs.getString(1));
                tool = rs.getString(2);
                attempts = rs.getInt(3);
                stored[0] = rs.getBytes(4);
            }
        }
        OperationRules.checkSameTool(operationId, tool, state, start);
        if (!locked && (state == OperationState.FAILED || state == OperationState.NOT_APPLIED)) {
            return RESTART;
        }
        return OperationRules.decide(state, attempts, stored[0] != null, () -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE operations SET state = 'in_flight', attempts = attempts + 1,"
                    + " upstream = ?, session = ?, approval = ?, task_id = ?, updated_at = ?, result = NULL,"
                    + " reconciled_by = NULL, reconciled_at = NULL, replica = ? WHERE tenant = ? AND id = ?")) {
                p.setString(1, start.upstream());
                p.setString(2, start.session());
                p.setString(3, start.approval());
                p.setString(4, start.taskId());
                p.setObject(5, now);
                p.setString(6, replica);
                p.setString(7, tenant);
                p.setString(8, operationId);
                p.executeUpdate();
            }
        });
    }

    @Override
    public Settled settle(String operationId, OperationState outcome, JsonNode cloakedResult) {
        OperationRules.checkSettle(outcome, cloakedResult);
        byte[] result = outcome == OperationState.DONE ? StoredResults.bytes(cloakedResult) : null;
        return transaction("settling operation " + operationId + " as " + outcome + " failed", false, c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE operations SET state = ?, result = ?, updated_at = ?"
                    + " WHERE tenant = ? AND id = ? AND state = 'in_flight'")) {
                p.setString(1, outcome.wire());
                p.setBytes(2, result);
                p.setObject(3, now());
                p.setString(4, tenant);
                p.setString(5, operationId);
                if (p.executeUpdate() == 1) {
                    return new Settled.Recorded(outcome);
                }
            }
            Operation now = row(c, operationId).orElseThrow(() -> OperationRules.notFound(operationId));
            return new Settled.Kept(now.state(), now.reconciledBy());
        });
    }

    @Override
    public OperationState markUnknown(String operationId) {
        return transaction("marking operation " + operationId + " unknown failed", true, c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "UPDATE operations SET state = 'unknown', updated_at = ? WHERE tenant = ? AND id = ? AND state = 'in_flight'")) {
                p.setObject(1, now());
                p.setString(2, tenant);
                p.setString(3, operationId);
                p.executeUpdate();
            }
            return row(c, operationId).orElseThrow(() -> OperationRules.notFound(operationId)).state();
        });
    }

    /** This replica's own {@code in_flight} rows of the tenant: what a previous process of the same replica left. */
    @Override
    public int sweep() {
        return sweepIds().size();
    }

    private List<String> sweepIds() {
        return transaction("the startup sweep of in_flight operations failed", true, c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE operations SET state = 'unknown', updated_at = ?"
                    + " WHERE tenant = ? AND replica = ? AND state = 'in_flight' RETURNING id")) {
                p.setObject(1, now());
                p.setString(2, tenant);
                p.setString(3, replica);
                return ids(p);
            }
        });
    }

    @Override
    public List<String> sweptAtOpen() {
        return sweptAtOpen;
    }

    /**
     * The tenant's {@code in_flight} rows of other replicas with no heartbeat newer than {@code deadAfter} (or none at
     * all) become {@code unknown}. Idempotent; of several replicas sweeping at once each row is moved (and returned) by
     * one: the update re-checks {@code in_flight} under the row lock.
     */
    @Override
    public List<String> sweepDeadReplicas() {
        return transaction("the sweep of dead replicas' operations failed", true, c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE operations o SET state = 'unknown', updated_at = ?"
                    + " WHERE o.tenant = ? AND o.state = 'in_flight' AND o.replica <> ? AND NOT EXISTS (SELECT 1 FROM replica_heartbeats h"
                    + " WHERE h.replica = o.replica AND h.last_seen > clock_timestamp() - ? * interval '1 millisecond') RETURNING o.id")) {
                p.setObject(1, now());
                p.setString(2, tenant);
                p.setString(3, replica);
                p.setLong(4, deadAfter.toMillis());
                return ids(p);
            }
        });
    }

    private static List<String> ids(PreparedStatement p) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        ids.sort(Comparator.naturalOrder());
        return List.copyOf(ids);
    }

    @Override
    public List<Operation> list(OperationState state) {
        return transaction("listing operations failed", true, c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT " + COLUMNS + " FROM operations WHERE tenant = ?"
                    + (state == null ? "" : " AND state = ?") + " ORDER BY created_at, id")) {
                p.setString(1, tenant);
                if (state != null) {
                    p.setString(2, state.wire());
                }
                List<Operation> out = new ArrayList<>();
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        out.add(operation(rs));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Optional<Operation> get(String operationId) {
        return transaction("reading operation " + operationId + " failed", true, c -> row(c, operationId));
    }

    @Override
    public Map<OperationState, Long> counts() {
        return transaction("counting operations failed", true, c -> {
            Map<OperationState, Long> out = new EnumMap<>(OperationState.class);
            for (OperationState st : OperationState.values()) {
                out.put(st, 0L);
            }
            try (PreparedStatement p = c.prepareStatement("SELECT state, count(*) FROM operations WHERE tenant = ? GROUP BY state")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        out.put(OperationState.fromWire(rs.getString(1)), rs.getLong(2));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public Operation reconcile(String operationId, Outcome outcome, boolean force, String byWhom) {
        OperationRules.checkByWhom(byWhom);
        return transaction("reconciling operation " + operationId + " failed, nothing changed", true, c -> {
            OperationState state;
            try (PreparedStatement p = c.prepareStatement("SELECT state FROM operations WHERE tenant = ? AND id = ? FOR UPDATE")) {
                p.setString(1, tenant);
                p.setString(2, operationId);
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next()) {
                        throw OperationRules.notFound(operationId);
                    }
                    state = OperationState.fromWire(rs.getString(1));
                }
            }
            OperationRules.checkReconcilable(operationId, state, force);
            OffsetDateTime now = now();
            try (PreparedStatement p = c.prepareStatement("UPDATE operations SET state = ?, result = NULL, reconciled_by = ?,"
                    + " reconciled_at = ?, updated_at = ? WHERE tenant = ? AND id = ?")) {
                p.setString(1, outcome.state().wire());
                p.setString(2, byWhom);
                p.setObject(3, now);
                p.setObject(4, now);
                p.setString(5, tenant);
                p.setString(6, operationId);
                p.executeUpdate();
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO operation_reconciliations (tenant, operation_id, state, by_whom, at)"
                    + " VALUES (?, ?, ?, ?, ?)")) {
                p.setString(1, tenant);
                p.setString(2, operationId);
                p.setString(3, outcome.state().wire());
                p.setString(4, byWhom);
                p.setObject(5, now);
                p.executeUpdate();
            }
            return row(c, operationId).orElseThrow(() -> OperationRules.notFound(operationId));
        });
    }

    /**
     * Claims the tenant's unrecorded reconciliations for this replica for {@link #CLAIM} (skipping rows another replica
     * is claiming at this moment; taking back this replica's own claims and any that ran out) and returns them.
     */
    @Override
    public List<Reconciliation> unrecorded() {
        return transaction("reading reconciliations failed", true, c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE operation_reconciliations SET claimed_by = ?,"
                    + " claimed_until = clock_timestamp() + ? * interval '1 millisecond' WHERE seq IN (SELECT seq FROM"
                    + " operation_reconciliations WHERE tenant = ? AND NOT recorded AND (claimed_until IS NULL OR claimed_by = ?"
                    + " OR claimed_until < clock_timestamp()) ORDER BY seq LIMIT 1000 FOR UPDATE SKIP LOCKED)"
                    + " RETURNING seq, operation_id, state, by_whom, at")) {
                p.setString(1, replica);
                p.setLong(2, CLAIM.toMillis());
                p.setString(3, tenant);
                p.setString(4, replica);
                List<Reconciliation> out = new ArrayList<>();
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Reconciliation(rs.getLong(1), rs.getString(2), OperationState.fromWire(rs.getString(3)),
                                rs.getString(4), instant(rs, 5)));
                    }
                }
                out.sort(Comparator.comparingLong(Reconciliation::seq));
                return out;
            }
        });
    }

    @Override
    public void recorded(long seq) {
        transaction("marking reconciliation " + seq + " recorded failed", true, c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "UPDATE operation_reconciliations SET recorded = true WHERE seq = ? AND tenant = ?")) {
                p.setLong(1, seq);
                p.setString(2, tenant);
                p.executeUpdate();
            }
            return null;
        });
    }

    private Optional<Operation> row(Connection c, String operationId) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT " + COLUMNS + " FROM operations WHERE tenant = ? AND id = ?")) {
            p.setString(1, tenant);
            p.setString(2, operationId);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? Optional.of(operation(rs)) : Optional.empty();
            }
        }
    }

    private static Operation operation(ResultSet rs) throws SQLException {
        return new Operation(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), OperationState.fromWire(rs.getString(5)),
                rs.getInt(6), instant(rs, 7), instant(rs, 8), rs.getString(9), rs.getString(10), rs.getString(11), instant(rs, 12),
                rs.getBoolean(13));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    /** The gateway's clock to the microsecond (what PostgreSQL keeps, as the SQLite store writes it). */
    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant().truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    public String tenant() {
        return tenant;
    }

    /** The replica whose process this store records calls for. */
    public String replica() {
        return replica;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(where + " is closed");
        }
    }

    /** The pool is the gateway's: closing the store only ends its use. */
    @Override
    public void close() {
        closed = true;
    }
}
