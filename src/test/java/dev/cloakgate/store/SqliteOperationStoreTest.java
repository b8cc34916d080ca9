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

/**
 * The operations store on real SQLite files: the {@link OperationStoreContract} and what is SQLite's own (one gateway
 * per file, operators beside it, a killed process's files, owner-only modes, a misplaced file).
 */
class SqliteOperationStoreTest extends OperationStoreContract {
    @TempDir
    Path dir;

    @Override
    OperationStore open(Clock clock) {
        return SqliteOperationStore.openForGateway(dir, T, clock);
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
