package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.store.OperationStore.Begin;
import dev.cloakgate.store.OperationStore.Outcome;
import dev.cloakgate.store.OperationStore.Settled;
import dev.cloakgate.store.OperationStore.Start;

/** The operations store on real SQLite files: every transition, replay, reconcile, sweep, lock and file modes. */
class SqliteOperationStoreTest {
    static final String T = "acme";
    static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    static Start start(String tool) {
        return start(T, tool);
    }

    static Start start(String tenant, String tool) {
        return new Start(tenant, tool, "crm", "s-1a2b", "sha256:" + "ab".repeat(32), "task-7");
    }

    static JsonNode result(String text) throws Exception {
        // a decimal written 1.0 must replay as 1.0, as the gateway's codec read it
        return new dev.cloakgate.jsonrpc.JsonCodec(new dev.cloakgate.jsonrpc.JsonCodec.Limits(64, 1 << 20))
                .parse("{\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],\"structuredContent\":{\"amount\":1.0,\"n\":12345678901234567890},\"isError\":false}");
    }

    @Test
    void aNewOperationIsRecordedInFlightBeforeForwarding() {
        Clock at = Clock.fixed(Instant.parse("2026-12-02T10:00:00.123456Z"), ZoneOffset.UTC);
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T, at)) {
            assertEquals(new Begin.Started(1), s.begin("op-1", start("crm__patch")));
            Operation o = s.get("op-1").orElseThrow();
            assertEquals(OperationState.IN_FLIGHT, o.state());
            assertEquals("crm__patch", o.tool());
            assertEquals("crm", o.upstream());
            assertEquals("s-1a2b", o.session());
            assertEquals("sha256:" + "ab".repeat(32), o.approval());
            assertEquals("task-7", o.taskId());
            assertEquals(1, o.attempts());
            assertEquals(Instant.parse("2026-12-02T10:00:00.123456Z"), o.createdAt());
            assertEquals(o.createdAt(), o.updatedAt());
            assertNull(o.reconciledBy());
            assertFalse(o.resultStored());
            assertEquals(List.of(o), s.list(OperationState.IN_FLIGHT));
            assertEquals(List.of(), s.list(OperationState.UNKNOWN));
            assertTrue(s.get("op-2").isEmpty());
        }
    }

    @Test
    void aDoneOperationReplaysItsStoredResultAfterAReopenAndIsNotStartedAgain() throws Exception {
        JsonNode r = result("paid [EMAIL_0]");
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(new Settled.Recorded(OperationState.DONE), s.settle("op-1", OperationState.DONE, r));
            assertEquals(new Begin.Replay(r), s.begin("op-1", start("crm__patch")));
        }
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            Begin b = s.begin("op-1", start("crm__patch"));
            Begin.Replay replay = assertInstanceOf(Begin.Replay.class, b);
            assertEquals(r, replay.result());
            assertEquals("1.0", replay.result().at("/structuredContent/amount").toString());
            assertEquals("12345678901234567890", replay.result().at("/structuredContent/n").toString());
            Operation o = s.get("op-1").orElseThrow();
            assertEquals(OperationState.DONE, o.state());
            assertEquals(1, o.attempts());
            assertTrue(o.resultStored());
            assertEquals(List.of(), s.sweptAtOpen());
        }
    }

    @Test
    void aFailedOperationKeepsNoResultAndIsStartedAgain() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(new Settled.Recorded(OperationState.FAILED), s.settle("op-1", OperationState.FAILED, result("boom")));
            Operation failed = s.get("op-1").orElseThrow();
            assertEquals(OperationState.FAILED, failed.state());
            assertFalse(failed.resultStored());
            assertEquals(new Begin.Started(2), s.begin("op-1", new Start(T, "crm__patch", "crm", "s-other", null, "task-7")));
            Operation again = s.get("op-1").orElseThrow();
            assertEquals(OperationState.IN_FLIGHT, again.state());
            assertEquals(2, again.attempts());
            assertEquals("s-other", again.session(), "the row describes the latest attempt");
            assertNull(again.approval());
        }
    }

    @Test
    void anOperationInFlightIsNotStartedTwice() {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(new Begin.InFlight(), s.begin("op-1", start("crm__patch")));
            assertEquals(1, s.get("op-1").orElseThrow().attempts());
        }
    }

    @Test
    void anUpstreamThatDiesMidCallLeavesTheOperationUnknownUntilReconciled() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(OperationState.UNKNOWN, s.markUnknown("op-1"));
            assertEquals(new Begin.Unknown(), s.begin("op-1", start("crm__patch")));
            assertEquals(OperationState.UNKNOWN, s.markUnknown("op-1"));
            // a late answer does not settle what the gateway already reported as unknown
            assertEquals(new Settled.Kept(OperationState.UNKNOWN, null), s.settle("op-1", OperationState.DONE, result("late")));
            assertEquals(List.of("op-1"), s.list(OperationState.UNKNOWN).stream().map(Operation::id).toList());

            s.begin("op-2", start("crm__patch"));
            s.settle("op-2", OperationState.DONE, result("x"));
            assertEquals(OperationState.DONE, s.markUnknown("op-2"), "a settled call stays settled");
            OperationRefusedException e = assertThrows(OperationRefusedException.class, () -> s.markUnknown("op-404"));
            assertEquals("operation_not_found", e.code());
        }
    }

    @Test
    void countsGiveEveryStateWithZeroForNone() {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-a", start("crm__patch"));
            s.begin("op-b", start("crm__patch"));
            s.begin("op-c", start("crm__patch"));
            s.markUnknown("op-b");
            s.settle("op-c", OperationState.FAILED, null);
            java.util.Map<OperationState, Long> n = s.counts();
            assertEquals(java.util.Map.of(OperationState.IN_FLIGHT, 1L, OperationState.UNKNOWN, 1L, OperationState.FAILED,
                    1L, OperationState.DONE, 0L, OperationState.NOT_APPLIED, 0L), n);
        }
    }

    @Test
    void reconciledDoneIsAnsweredAsReconciledAndNotAppliedIsStartedAgain() {
        Clock at = Clock.fixed(Instant.parse("2026-12-02T11:00:00Z"), ZoneOffset.UTC);
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T, at)) {
            s.begin("op-done", start("crm__patch"));
            s.markUnknown("op-done");
            Operation o = s.reconcile("op-done", Outcome.DONE, false, "alice");
            assertEquals(OperationState.DONE, o.state());
            assertEquals("alice", o.reconciledBy());
            assertEquals(Instant.parse("2026-12-02T11:00:00Z"), o.reconciledAt());
            assertFalse(o.resultStored());
            assertEquals(new Begin.Reconciled(OperationState.DONE), s.begin("op-done", start("crm__patch")));

            s.begin("op-na", start("crm__patch"));
            s.markUnknown("op-na");
            assertEquals(OperationState.NOT_APPLIED, s.reconcile("op-na", Outcome.parse("not-applied"), false, "bob").state());
            assertEquals(new Begin.Started(2), s.begin("op-na", start("crm__patch")));
            Operation retried = s.get("op-na").orElseThrow();
            assertEquals(OperationState.IN_FLIGHT, retried.state());
            assertNull(retried.reconciledBy(), "the retry is the gateway's again");
        }
    }

    @Test
    void reconcileRefusesWhatIsNotUnknownAndInFlightWithoutForce() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            OperationRefusedException missing = assertThrows(OperationRefusedException.class,
                    () -> s.reconcile("op-404", Outcome.DONE, true, "alice"));
            assertEquals("operation_not_found", missing.code());
            assertNull(missing.state());

            s.begin("op-fly", start("crm__patch"));
            OperationRefusedException flying = assertThrows(OperationRefusedException.class,
                    () -> s.reconcile("op-fly", Outcome.DONE, false, "alice"));
            assertEquals("operation_not_unknown", flying.code());
            assertEquals(OperationState.IN_FLIGHT, flying.state());
            assertTrue(flying.getMessage().contains("--force"), flying.getMessage());
            assertEquals(OperationState.IN_FLIGHT, s.get("op-fly").orElseThrow().state(), "a refusal changes nothing");

            s.begin("op-done", start("crm__patch"));
            s.settle("op-done", OperationState.DONE, result("x"));
            s.begin("op-failed", start("crm__patch"));
            s.settle("op-failed", OperationState.FAILED, null);
            s.begin("op-na", start("crm__patch"));
            s.markUnknown("op-na");
            s.reconcile("op-na", Outcome.NOT_APPLIED, false, "alice");
            for (String id : List.of("op-done", "op-failed", "op-na")) {
                OperationState before = s.get(id).orElseThrow().state();
                for (boolean force : new boolean[] {false, true}) {
                    OperationRefusedException e = assertThrows(OperationRefusedException.class,
                            () -> s.reconcile(id, Outcome.DONE, force, "alice"));
                    assertEquals("operation_not_unknown", e.code());
                    assertEquals(before, e.state());
                }
                assertEquals(before, s.get(id).orElseThrow().state());
            }
            assertInstanceOf(Begin.Replay.class, s.begin("op-done", start("crm__patch")), "the stored result survives a refused reconcile");
            assertThrows(IllegalArgumentException.class, () -> s.reconcile("op-fly", Outcome.DONE, true, " "));
            assertThrows(IllegalArgumentException.class, () -> Outcome.parse("maybe"));
        }
    }

    @Test
    void anOperatorsForcedReconcileWinsOverTheLateAnswer() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            s.reconcile("op-1", Outcome.NOT_APPLIED, true, "alice");
            assertEquals(new Settled.Kept(OperationState.NOT_APPLIED, "alice"), s.settle("op-1", OperationState.DONE, result("late")));
            assertEquals(OperationState.NOT_APPLIED, s.markUnknown("op-1"));
            Operation o = s.get("op-1").orElseThrow();
            assertEquals(OperationState.NOT_APPLIED, o.state());
            assertFalse(o.resultStored());
            s.begin("op-2", start("crm__patch"));
            assertEquals(OperationState.DONE, s.reconcile("op-2", Outcome.DONE, true, "bob").state());
            assertEquals(new Settled.Kept(OperationState.DONE, "bob"), s.settle("op-2", OperationState.FAILED, null));
            assertEquals(new Begin.Reconciled(OperationState.DONE), s.begin("op-2", start("crm__patch")));
        }
    }

    @Test
    void settleTakesDoneWithAResultOrFailed() {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            for (OperationState st : List.of(OperationState.IN_FLIGHT, OperationState.UNKNOWN, OperationState.NOT_APPLIED)) {
                assertThrows(IllegalArgumentException.class, () -> s.settle("op-1", st, M.createObjectNode()));
            }
            assertThrows(IllegalArgumentException.class, () -> s.settle("op-1", OperationState.DONE, null));
            assertEquals(OperationState.IN_FLIGHT, s.get("op-1").orElseThrow().state());
            OperationRefusedException e = assertThrows(OperationRefusedException.class,
                    () -> s.settle("op-404", OperationState.FAILED, null));
            assertEquals("operation_not_found", e.code());
        }
    }

    @Test
    void anOperationIdNamesOneToolAndOneTenantAndIsPlainText() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            s.settle("op-1", OperationState.DONE, result("invoice paid"));
            // a second approval reusing the id for another call must not get the first call's result
            OperationRefusedException e = assertThrows(OperationRefusedException.class, () -> s.begin("op-1", start("crm__delete")));
            assertEquals("operation_id_conflict", e.code());
            assertEquals(OperationState.DONE, s.get("op-1").orElseThrow().state());
            for (String bad : new String[] {"", "-x", "a b", "../x", "x\n", "\u00e9", "a".repeat(129), null}) {
                assertThrows(IllegalArgumentException.class, () -> s.begin(bad, start("crm__patch")), String.valueOf(bad));
                assertFalse(Operation.validId(bad));
            }
            assertTrue(Operation.validId("3f0c8a62-9d7e-4c1b-8a55-0e4f2b1d9c77"));
            assertTrue(Operation.validId("op-" + "0123456789abcdef".repeat(2)));
            assertThrows(IllegalArgumentException.class, () -> s.begin("op-2", new Start("other", "crm__patch", "crm", null, null, null)));
        }
    }

    @Test
    void aSecondGatewayIsRefusedNamingTheLockAndItsHolderUntilTheFirstCloses() {
        SqliteOperationStore first = SqliteOperationStore.openForGateway(dir, T);
        try {
            StoreLockedException e = assertThrows(StoreLockedException.class, () -> SqliteOperationStore.openForGateway(dir, T));
            assertEquals(dir.resolve("operations").resolve(T + ".lock"), e.lockFile());
            assertTrue(e.getMessage().contains(T + ".lock") && e.getMessage().contains("pid " + ProcessHandle.current().pid()),
                    e.getMessage());
            first.begin("op-1", start("crm__patch"));
        } finally {
            first.close();
        }
        try (SqliteOperationStore second = SqliteOperationStore.openForGateway(dir, T)) {
            assertEquals(List.of("op-1"), second.sweptAtOpen(), "what the first left in flight");
        }
    }

    @Test
    void anOperatorStoreBesideTheGatewayInterleavesInTransactions() throws Exception {
        try (SqliteOperationStore gw = SqliteOperationStore.openForGateway(dir, T);
                SqliteOperationStore op = SqliteOperationStore.openForOperator(dir, T)) {
            assertFalse(op.gateway());
            gw.begin("op-a", start("crm__patch"));
            assertEquals(List.of("op-a"), op.list(OperationState.IN_FLIGHT).stream().map(Operation::id).toList());
            assertEquals("operation_not_unknown",
                    assertThrows(OperationRefusedException.class, () -> op.reconcile("op-a", Outcome.DONE, false, "alice")).code());
            gw.markUnknown("op-a");
            assertEquals(OperationState.DONE, op.reconcile("op-a", Outcome.DONE, false, "alice").state());
            assertEquals(new Begin.Reconciled(OperationState.DONE), gw.begin("op-a", start("crm__patch")));

            gw.begin("op-b", start("crm__patch"));
            op.reconcile("op-b", Outcome.NOT_APPLIED, true, "bob");
            assertEquals(new Settled.Kept(OperationState.NOT_APPLIED, "bob"), gw.settle("op-b", OperationState.DONE, result("late")));
            assertEquals(new Begin.Started(2), gw.begin("op-b", start("crm__patch")));
            assertEquals(OperationState.IN_FLIGHT, op.get("op-b").orElseThrow().state());

            // an operator's store records no calls and never sweeps: the running gateway's calls are its own
            assertThrows(IllegalStateException.class, () -> op.begin("op-c", start("crm__patch")));
            assertThrows(IllegalStateException.class, op::sweep);
            assertThrows(IllegalStateException.class, () -> op.markUnknown("op-b"));
            assertThrows(IllegalStateException.class, () -> op.settle("op-b", OperationState.FAILED, null));
            assertThrows(StoreLockedException.class, () -> SqliteOperationStore.openForGateway(dir, T));
        }
    }

    @Test
    void aGatewayAndAnOperatorWritingAtOnceWaitForEachOtherInsteadOfFailing() throws Exception {
        int n = 200;
        try (SqliteOperationStore gw = SqliteOperationStore.openForGateway(dir, T);
                SqliteOperationStore op = SqliteOperationStore.openForOperator(dir, T)) {
            CompletableFuture<Void> gateway = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < n; i++) {
                    assertEquals(new Begin.Started(1), gw.begin("op-" + i, start("crm__patch")));
                    gw.markUnknown("op-" + i);
                }
            });
            CompletableFuture<Integer> operator = CompletableFuture.supplyAsync(() -> {
                int reconciled = 0;
                while (reconciled < n) {
                    for (Operation o : op.list(OperationState.UNKNOWN)) {
                        op.reconcile(o.id(), Outcome.NOT_APPLIED, false, "alice");
                        reconciled++;
                    }
                }
                return reconciled;
            });
            gateway.get(120, TimeUnit.SECONDS);
            assertEquals(n, operator.get(120, TimeUnit.SECONDS));
            assertEquals(n, gw.list(OperationState.NOT_APPLIED).size());
            assertEquals(List.of(), gw.list(OperationState.UNKNOWN));
        }
    }

    @Test
    void aStartupSweepTurnsInFlightRowsOfADeadProcessUnknown() throws Exception {
        Path copy = dir.resolve("copy");
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-flying", start("crm__patch"));
            s.begin("op-done", start("crm__patch"));
            s.settle("op-done", OperationState.DONE, result("x"));
            s.begin("op-failed", start("crm__patch"));
            s.settle("op-failed", OperationState.FAILED, null);
            // the files as a process killed now leaves them: committed WAL frames, no checkpoint, no clean close
            Files.createDirectories(copy.resolve("operations"));
            for (String f : List.of(T + ".db", T + ".db-wal")) {
                Files.copy(dir.resolve("operations").resolve(f), copy.resolve("operations").resolve(f), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(copy, T)) {
            assertEquals(List.of("op-flying"), s.sweptAtOpen());
            assertEquals(OperationState.UNKNOWN, s.get("op-flying").orElseThrow().state());
            assertEquals(OperationState.DONE, s.get("op-done").orElseThrow().state());
            assertEquals(OperationState.FAILED, s.get("op-failed").orElseThrow().state());
            assertEquals(new Begin.Unknown(), s.begin("op-flying", start("crm__patch")));
            assertEquals(0, s.sweep());
        }
    }

    @Test
    void theStoreIsOwnerOnlyWithItsWalAndSharedMemoryFiles() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            s.settle("op-1", OperationState.DONE, result("x"));
            Path ops = dir.resolve("operations");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ops)));
            for (String f : List.of(T + ".db", T + ".db-wal", T + ".db-shm")) {
                assertTrue(Files.exists(ops.resolve(f)), f);
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ops.resolve(f))), f);
            }
        }
    }

    @Test
    void aFileOfAnotherTenantFormatOrKindIsRefused() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
        }
        Path ops = dir.resolve("operations");
        Files.copy(ops.resolve(T + ".db"), ops.resolve("globex.db"));
        StoreException other = assertThrows(StoreException.class, () -> SqliteOperationStore.openForGateway(dir, "globex"));
        assertTrue(other.getMessage().contains("tenant 'acme', not 'globex'"), other.getMessage());
        assertThrows(StoreException.class, () -> SqliteOperationStore.openForOperator(dir, "globex"));

        try (Connection c = Sqlite.connect(ops.resolve(T + ".db"), new java.util.Properties()); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE meta SET value = '2' WHERE key = 'format'");
        }
        StoreException format = assertThrows(StoreException.class, () -> SqliteOperationStore.openForGateway(dir, T));
        assertTrue(format.getMessage().contains("format 2"), format.getMessage());

        // a ledger put where the operations store belongs
        Path elsewhere = dir.resolve("l");
        try (dev.cloakgate.ledger.SqliteLedgerStore l = LedgerStore.open(elsewhere, "initech")) {
            assertNotNull(l.dbFile());
        }
        Files.copy(elsewhere.resolve("ledger").resolve("initech.db"), ops.resolve("initech.db"));
        StoreException kind = assertThrows(StoreException.class, () -> SqliteOperationStore.openForGateway(dir, "initech"));
        assertTrue(kind.getMessage().contains("not an operations store"), kind.getMessage());
        assertThrows(StoreException.class, () -> SqliteOperationStore.openForOperator(dir, "initech"));

        StoreException none = assertThrows(StoreException.class, () -> SqliteOperationStore.openForOperator(dir, "hooli"));
        assertTrue(none.getMessage().contains("no operations store for tenant 'hooli'"), none.getMessage());
        assertFalse(Files.exists(ops.resolve("hooli.db")), "an operator's look creates nothing");
        assertThrows(IllegalArgumentException.class, () -> SqliteOperationStore.openForGateway(dir, "../x"));
    }

    @Test
    void statesAreSnakeCaseOnDisk() throws Exception {
        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            s.begin("op-1", start("crm__patch"));
            s.markUnknown("op-1");
            s.reconcile("op-1", Outcome.NOT_APPLIED, false, "alice");
        }
        try (Connection c = Sqlite.connect(dir.resolve("operations").resolve(T + ".db"), new java.util.Properties());
                Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT state FROM operations WHERE id = 'op-1'")) {
            assertTrue(rs.next());
            assertEquals("not_applied", rs.getString(1));
        }
        assertEquals("in_flight", OperationState.IN_FLIGHT.wire());
        assertEquals(OperationState.NOT_APPLIED, OperationState.fromWire("not_applied"));
        assertThrows(IllegalArgumentException.class, () -> OperationState.fromWire("NOT_APPLIED"));
    }
}
