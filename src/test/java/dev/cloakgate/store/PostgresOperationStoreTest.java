package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.cloakgate.store.OperationStore.Begin;
import dev.cloakgate.store.OperationStore.Outcome;
import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: the operations store in a real PostgreSQL (a fresh migrated database per test): the
 * {@link OperationStoreContract}, and what several replicas sharing it need: one transaction decides a begin sent
 * through two replicas at once (real concurrent connections), a start sweeps only its own replica's calls, a silent
 * replica's calls become unknown once, and each reconciliation in the outbox is handed to one replica.
 */
class PostgresOperationStoreTest extends OperationStoreContract {
    static final Duration DEAD_AFTER = Duration.ofSeconds(30);
    DataSource db;
    ExecutorService pool;

    @BeforeEach
    void database() {
        db = TestPostgres.server().database("operations").migrated().dataSource();
        pool = Executors.newFixedThreadPool(8);
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Override
    OperationStore open(Clock clock) {
        return replica("r0", clock);
    }

    PostgresOperationStore replica(String id) {
        return replica(id, Clock.systemUTC());
    }

    PostgresOperationStore replica(String id, Clock clock) {
        return PostgresOperationStore.openForGateway(db, T, id, DEAD_AFTER, clock);
    }

    @Test
    void theSameOperationBegunThroughTwoReplicasAtOnceIsStartedOnce() throws Exception {
        PostgresOperationStore r0 = replica("r0");
        PostgresOperationStore r1 = replica("r1");
        int threads = 8;
        int rounds = 25;
        for (int round = 0; round < rounds; round++) {
            String id = "op-" + round;
            int started = 0;
            for (Begin b : beginTogether(id, threads, r0, r1)) {
                if (b instanceof Begin.Started s) {
                    assertEquals(1, s.attempt());
                    started++;
                } else {
                    assertInstanceOf(Begin.InFlight.class, b, id);
                }
            }
            assertEquals(1, started, id + ": one begin decided, every other one saw it in flight");
        }
        // a failed call tried again through both replicas at once: one new attempt
        r0.settle("op-0", OperationState.FAILED, null);
        List<Begin> answered = beginTogether("op-0", threads, r0, r1);
        assertEquals(1, answered.stream().filter(b -> b.equals(new Begin.Started(2))).count(), answered.toString());
        assertEquals(threads - 1, answered.stream().filter(b -> b instanceof Begin.InFlight).count(), answered.toString());
        assertEquals(2, r1.get("op-0").orElseThrow().attempts());
    }

    @Test
    void eachOperationRecordsTheReplicaThatBeganItsLatestAttempt() throws Exception {
        PostgresOperationStore r0 = replica("r0");
        PostgresOperationStore r1 = replica("r1");
        r0.begin("op-a", start("crm__patch"));
        r1.begin("op-b", start("crm__patch"));
        r1.settle("op-b", OperationState.FAILED, null);
        r0.begin("op-b", start("crm__patch"));
        assertEquals("r0", column("replica", "op-a"));
        assertEquals("r0", column("replica", "op-b"), "the replica of the latest attempt");
        assertEquals("in_flight", column("state", "op-b"), "states are snake_case in the table");
        assertEquals("single", PostgresOperationStore.openForGateway(db, T, ReplicaHeartbeat.SINGLE, DEAD_AFTER, Clock.systemUTC()).replica());
        assertThrows(IllegalArgumentException.class, () -> replica("R0"));
        assertThrows(IllegalArgumentException.class, () -> replica("-r0"));
    }

    @Test
    void aStartSweepsOnlyItsOwnReplicasCallsInFlight() {
        PostgresOperationStore r0 = replica("r0");
        PostgresOperationStore r1 = replica("r1");
        r0.begin("op-a", start("crm__patch"));
        r1.begin("op-b", start("crm__patch"));
        PostgresOperationStore r0Again = replica("r0"); // the pod restarted under the same name
        assertEquals(List.of("op-a"), r0Again.sweptAtOpen());
        assertEquals(OperationState.UNKNOWN, r1.get("op-a").orElseThrow().state());
        assertEquals(OperationState.IN_FLIGHT, r0Again.get("op-b").orElseThrow().state(), "r1's call is still running");
        assertEquals(new OperationStore.Settled.Recorded(OperationState.DONE), r1.settle("op-b", OperationState.DONE, M.createObjectNode()),
                "r1 settles its call as if nothing happened");
    }

    @Test
    void theCallsOfAReplicaThatStoppedBeatingBecomeUnknownOnceAndAnyReplicaReconcilesThem() throws Exception {
        new ReplicaHeartbeat(db, "r0").beat();
        new ReplicaHeartbeat(db, "r1").beat();
        PostgresOperationStore r0 = replica("r0");
        PostgresOperationStore r1 = replica("r1");
        PostgresOperationStore r2 = replica("r2"); // never beats: its calls are nobody's
        r1.begin("op-b", start("crm__patch"));
        r1.begin("op-c", start("crm__patch"));
        r1.settle("op-c", OperationState.DONE, result("x"));
        r0.begin("op-a", start("crm__patch"));
        r2.begin("op-z", start("crm__patch"));
        assertEquals(List.of("op-z"), r0.sweepDeadReplicas(), "a replica without a heartbeat is not alive");
        assertEquals(OperationState.IN_FLIGHT, r0.get("op-b").orElseThrow().state(), "r1 beat within the bound");

        // r1 is killed: its last beat ages past the bound (set in the database, as time would)
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE replica_heartbeats SET last_seen = clock_timestamp() - interval '31 seconds' WHERE replica = 'r1'");
        }
        // two replicas sweep at once: each call is moved, and reported, by one of them
        CyclicBarrier together = new CyclicBarrier(2);
        Future<List<String>> a = pool.submit(() -> {
            together.await(60, TimeUnit.SECONDS);
            return r0.sweepDeadReplicas();
        });
        Future<List<String>> b = pool.submit(() -> {
            together.await(60, TimeUnit.SECONDS);
            return replica("r3").sweepDeadReplicas();
        });
        List<String> moved = new ArrayList<>(a.get(60, TimeUnit.SECONDS));
        moved.addAll(b.get(60, TimeUnit.SECONDS));
        assertEquals(List.of("op-b"), moved);
        assertEquals(List.of(), r0.sweepDeadReplicas(), "idempotent");
        assertEquals(OperationState.UNKNOWN, r0.get("op-b").orElseThrow().state());
        assertEquals(OperationState.DONE, r0.get("op-c").orElseThrow().state(), "a settled call stays settled");
        assertEquals(OperationState.IN_FLIGHT, r0.get("op-a").orElseThrow().state(), "a replica never sweeps its own calls");
        assertEquals(new Begin.Unknown(), r0.begin("op-b", start("crm__patch")));
        assertEquals(OperationState.NOT_APPLIED, r0.reconcile("op-b", Outcome.NOT_APPLIED, false, "alice").state());
        assertEquals(new Begin.Started(2), r0.begin("op-b", start("crm__patch")));
        // the dead replica's late answer does not settle what was reported unknown
        assertEquals(new OperationStore.Settled.Kept(OperationState.UNKNOWN, null), r1.settle("op-z", OperationState.DONE, result("late")));
    }

    @Test
    void eachReconciliationIsHandedToOneOfTheReplicasPollingTheOutbox() throws Exception {
        PostgresOperationStore r0 = replica("r0");
        PostgresOperationStore r1 = replica("r1");
        int n = 60;
        for (int i = 0; i < n; i++) {
            r0.begin("op-" + i, start("crm__patch"));
            r0.reconcile("op-" + i, Outcome.NOT_APPLIED, true, "alice");
        }
        ConcurrentLinkedQueue<Long> recorded = new ConcurrentLinkedQueue<>();
        CyclicBarrier together = new CyclicBarrier(4);
        List<Future<?>> pollers = new ArrayList<>();
        for (PostgresOperationStore via : List.of(r0, r1, replica("r2"), replica("r3"))) {
            pollers.add(pool.submit(() -> {
                together.await(60, TimeUnit.SECONDS);
                for (int pass = 0; pass < 20; pass++) {
                    for (OperationStore.Reconciliation r : via.unrecorded()) {
                        recorded.add(r.seq()); // the ledger append
                        via.recorded(r.seq());
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : pollers) {
            f.get(120, TimeUnit.SECONDS);
        }
        assertEquals(n, recorded.size(), "each reconciliation put on the ledger once");
        assertEquals(n, new HashSet<>(recorded).size());
        assertEquals(List.of(), r1.unrecorded());
    }

    @Test
    void aClaimNeverRecordedIsHandedOutAgainWhenItRunsOut() throws Exception {
        PostgresOperationStore r0 = replica("r0");
        PostgresOperationStore r1 = replica("r1");
        r0.begin("op-1", start("crm__patch"));
        r0.reconcile("op-1", Outcome.DONE, true, "alice");
        List<OperationStore.Reconciliation> claimed = r0.unrecorded();
        assertEquals(1, claimed.size());
        assertEquals(List.of(), r1.unrecorded(), "claimed by r0");
        assertEquals(claimed, r0.unrecorded(), "a replica takes back its own claim (a failed ledger append is retried)");
        // r0 died between its claim and its record: the claim runs out
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE operation_reconciliations SET claimed_until = clock_timestamp() - interval '1 second'");
        }
        assertEquals(claimed, r1.unrecorded());
        r1.recorded(claimed.get(0).seq());
        assertEquals(List.of(), r0.unrecorded());
    }

    @Test
    void tenantsShareTheTablesButNotTheirOperations() throws Exception {
        PostgresOperationStore acme = replica("r0");
        PostgresOperationStore globex = PostgresOperationStore.openForGateway(db, "globex", "r0", DEAD_AFTER, Clock.systemUTC());
        acme.begin("op-1", start("crm__patch"));
        acme.settle("op-1", OperationState.DONE, result("acme's"));
        assertEquals(new Begin.Started(1), globex.begin("op-1", start("globex", "crm__delete")));
        assertEquals(OperationState.IN_FLIGHT, globex.get("op-1").orElseThrow().state());
        assertEquals(OperationState.DONE, acme.get("op-1").orElseThrow().state());
        assertEquals(List.of("op-1"), globex.list(null).stream().map(Operation::id).toList());
        assertEquals(1L, acme.counts().get(OperationState.DONE));
        assertEquals(0L, globex.counts().get(OperationState.DONE));
        globex.markUnknown("op-1");
        globex.reconcile("op-1", Outcome.DONE, false, "bob");
        assertEquals(List.of(), acme.unrecorded(), "another tenant's reconciliation is put on another ledger");
        assertEquals(1, globex.unrecorded().size());
        assertThrows(IllegalArgumentException.class, () -> acme.begin("op-2", start("globex", "crm__patch")));
    }

    @Test
    void theTableHoldsNoArgumentValues() throws Exception {
        Set<String> columns = new HashSet<>();
        try (Connection c = db.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_name = 'operations'")) {
            while (rs.next()) {
                columns.add(rs.getString(1));
            }
        }
        assertEquals(Set.of("tenant", "id", "tool", "upstream", "session", "state", "attempts", "created_at", "updated_at",
                "approval", "task_id", "reconciled_by", "reconciled_at", "result", "replica"), columns);
        assertTrue(columns.contains("result"), "only a done call's cloaked result, for replay");
    }

    /** {@code threads} begins of {@code id} at once, alternately through each replica, each on its own connection. */
    private List<Begin> beginTogether(String id, int threads, PostgresOperationStore r0, PostgresOperationStore r1) throws Exception {
        CyclicBarrier together = new CyclicBarrier(threads);
        List<Future<Begin>> answers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            PostgresOperationStore via = t % 2 == 0 ? r0 : r1;
            answers.add(pool.submit(() -> {
                together.await(60, TimeUnit.SECONDS);
                return via.begin(id, start("crm__patch"));
            }));
        }
        List<Begin> out = new ArrayList<>();
        for (Future<Begin> f : answers) {
            out.add(f.get(120, TimeUnit.SECONDS));
        }
        return out;
    }

    private String column(String column, String id) throws Exception {
        try (Connection c = db.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT " + column + " FROM operations WHERE id = '" + id + "'")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }
}
