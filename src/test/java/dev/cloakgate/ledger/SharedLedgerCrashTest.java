package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.testing.PooledDataSource;
import dev.cloakgate.testing.TestPostgres;
import io.agroal.api.AgroalDataSource;

/**
 * Issue 17: two replica processes append batches of 100 to one PostgreSQL log and are killed with SIGKILL at once,
 * mid-batch. Every batch is wholly stored or wholly absent, the two writers' batches form one chain, and a replica
 * opening the log afterwards verifies all of it and continues it.
 */
class SharedLedgerCrashTest {
    private static final String T = "crashy";

    @TempDir
    Path dir;

    @Test
    void sigkillOfTwoWritersMidBatchLeavesOneWholeChain() throws Exception {
        TestPostgres.Database db = TestPostgres.server().database("shared_crash").migrated();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try (AgroalDataSource pool = PooledDataSource.of(db, 4)) {
            PostgresLedgerStore.open(pool, T, Clock.systemUTC()).close();
            List<Process> children = new ArrayList<>();
            try {
                for (String writer : List.of("r0", "r1")) {
                    children.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                            LedgerCrashChild.class.getName(), "postgresql", db.name(), db.url(), db.user(), db.password(), T, writer)
                            .redirectErrorStream(true).redirectOutput(dir.resolve(writer + ".log").toFile()).start());
                }
                try (LedgerStore watch = PostgresLedgerStore.openReadOnly(pool, T)) {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                    // kill only once both writers are committing: under load one JVM can start seconds after the
                    // other, and a kill before it wrote anything would test one writer, not two
                    Set<String> writing = new HashSet<>();
                    long checked = 0;
                    ObjectMapper json = new ObjectMapper();
                    while (watch.size() < 5_000 || writing.size() < 2) {
                        for (Process c : children) {
                            assertTrue(c.isAlive(), () -> "child died: " + logs());
                        }
                        assertTrue(System.nanoTime() < deadline, "children too slow: " + watch.size() + " " + writing);
                        long size = watch.size();
                        if (size > checked) {
                            for (byte[] e : watch.read(checked, size - 1)) {
                                writing.add(json.readTree(e).get("writer").asText());
                            }
                            checked = size;
                        }
                        Thread.sleep(20);
                    }
                }
            } finally {
                children.forEach(Process::destroyForcibly); // SIGKILL on Linux, both at once
                for (Process c : children) {
                    c.waitFor(30, TimeUnit.SECONDS);
                }
            }
            for (Process c : children) {
                assertEquals(137, c.exitValue(), "killed by SIGKILL");
            }

            LedgerKeyring ring = new LedgerKeyring(Ed25519SigningKey.fromSeed(new byte[32]), Optional.empty(),
                    LogIdentity.configured("gw.example"));
            // a replica starting now replays (verifies) the whole shared log, then continues it
            try (Ledger ledger = Ledger.open(PostgresLedgerStore.open(pool, T, Clock.systemUTC()), ring,
                    Ledger.Settings.defaults())) {
                long size = ledger.size();
                assertEquals(0, size % 100, "a batch of 100 was partly stored: " + size);
                ChainVerifier.Result chain = new ChainVerifier().verify(T, ledger.store().read(0, size - 1), EntryHash.GENESIS);
                assertTrue(chain.valid(), chain.failures()::toString);
                // each writer's batches are whole and in its own order
                ObjectMapper m = new ObjectMapper();
                Map<String, Long> next = new HashMap<>();
                for (byte[] e : ledger.store().read(0, size - 1)) {
                    JsonNode entry = m.readTree(e);
                    String w = entry.get("writer").asText();
                    assertEquals(next.getOrDefault(w, 0L), entry.get("n").asLong(), "writer " + w);
                    next.put(w, entry.get("n").asLong() + 1);
                }
                assertTrue(next.getOrDefault("r0", 0L) > 0 && next.getOrDefault("r1", 0L) > 0, next.toString());
                assertEquals(size, ledger.submit(new ObjectMapper().createObjectNode().put("kind", "test")).join());
            }
        }
    }

    private String logs() {
        try {
            return Files.readString(dir.resolve("r0.log")) + "\n" + Files.readString(dir.resolve("r1.log"));
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
