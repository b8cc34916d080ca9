package dev.cloakgate.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: the pins in a real PostgreSQL (a fresh migrated database per test): the {@link PinStoreContract}, where
 * "another store" is another replica's, and the cache answering only while the tenant's version is unchanged.
 */
class PostgresPinStoreTest extends PinStoreContract {
    DataSource db;

    @BeforeEach
    void database() {
        db = TestPostgres.server().database("pins").migrated().dataSource();
    }

    @Override
    PinStore open() {
        return new PostgresPinStore(db, "t");
    }

    @Test
    void aChangeMadeBehindAStoresBackIsSeenAtItsNextCheck() throws Exception {
        PinStore r0 = open();
        ObjectMapper m = new ObjectMapper();
        r0.check("fs", "read", new PinStore.Seen("a".repeat(64), null, m.readTree("{\"description\":\"one\"}")));
        assertEquals(PinStore.Check.SAME, r0.check("fs", "read", "a".repeat(64)), "answered from the cache");
        // an operator's change through another replica raises the version: the cache is not used any more
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE tool_pins SET sha256 = '" + "c".repeat(64) + "'");
            s.executeUpdate("UPDATE tool_pin_versions SET version = version + 1");
        }
        assertEquals(PinStore.Check.CHANGED, r0.check("fs", "read", "a".repeat(64)));
        assertEquals(m.readTree("{\"description\":\"one\"}"), open().pin("fs/read").definition(), "the definition kept as JSON");
        assertEquals(PinStore.Check.PINNED_NOW, new PostgresPinStore(db, "other").check("fs", "read", "a".repeat(64)),
                "another tenant's pins are its own");
    }

    /** Two replicas list the same new tool at once (a file store is one per process: its lock is the process's). */
    @Test
    void aToolFirstSeenThroughTwoStoresAtOnceIsPinnedOnce() throws Exception {
        PinStore a = open();
        PinStore b = open();
        for (int i = 0; i < 20; i++) {
            String tool = "t" + i;
            java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
            java.util.concurrent.CompletableFuture<PinStore.Check> viaA = java.util.concurrent.CompletableFuture.supplyAsync(() -> seen(a, together, tool, "a"));
            java.util.concurrent.CompletableFuture<PinStore.Check> viaB = java.util.concurrent.CompletableFuture.supplyAsync(() -> seen(b, together, tool, "b"));
            List<PinStore.Check> checks = List.of(viaA.get(60, java.util.concurrent.TimeUnit.SECONDS), viaB.get(60, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(1, checks.stream().filter(PinStore.Check.PINNED_NOW::equals).count(), tool + ": " + checks);
            assertEquals(1, checks.stream().filter(PinStore.Check.CHANGED::equals).count(),
                    tool + ": the other definition is a change of the one pinned first: " + checks);
        }
        assertEquals(20, open().all().size());
    }

    private static PinStore.Check seen(PinStore s, java.util.concurrent.CyclicBarrier together, String tool, String which) {
        try {
            together.await(60, java.util.concurrent.TimeUnit.SECONDS);
            return s.check("fs", tool, which.repeat(64));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
