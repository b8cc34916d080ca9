package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A child JVM appending batches as fast as it can is killed with SIGKILL (destroyForcibly) at three different
 * moments; each time the ledger reopens, verifies from seq 0, and continues the same chain.
 */
class LedgerCrashTest {
    private static final String T = "crashy";

    @TempDir
    Path dir;

    @Test
    void sigkillDuringAppendsLeavesAVerifiableChainThatContinues() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path db = dir.resolve("ledger").resolve(T + ".db");
        long[] extraDelayMillis = {0, 7, 23};
        long before = 0;
        for (int round = 0; round < 3; round++) {
            int r0 = round;
            Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    LedgerCrashChild.class.getName(), dir.toString(), T)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("child-" + round + ".log").toFile()).start();
            try {
                long target = before + 3_000 + 1_000L * round;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (LedgerStoreTest.rowCount(db) < target) {
                    assertTrue(child.isAlive(), () -> "child died: " + log(r0));
                    assertTrue(System.nanoTime() < deadline, "child too slow");
                    Thread.sleep(5);
                }
                if (round == 0) { // a second gateway process on the same ledger is refused and told who holds it
                    LedgerLockedException e = assertThrows(LedgerLockedException.class, () -> LedgerStore.open(dir, T));
                    assertTrue(e.getMessage().contains("pid " + child.pid()) && e.getMessage().contains("another gateway holds"),
                            e.getMessage());
                }
                Thread.sleep(extraDelayMillis[round]);
            } finally {
                child.destroyForcibly(); // SIGKILL on Linux
                child.waitFor(30, TimeUnit.SECONDS);
            }
            assertEquals(137, child.exitValue(), "killed by SIGKILL");
            try (LedgerStore store = LedgerStore.open(dir, T)) {
                long size = store.size();
                assertTrue(size >= before + 3_000, "entries lost: " + size);
                assertEquals(0, (size - before) % 100, "a batch of 100 was partly stored: " + size);
                LedgerStoreTest.assertChainValid(store);
                byte[] last = store.lastHash();
                LedgerStore.Appended next = store.append(List.of(LedgerStoreTest.body(-1))).get(0);
                assertEquals(size, next.seq());
                String prev = new ObjectMapper().readTree(store.read(size, size).get(0)).get("prev").asText();
                assertEquals(HexFormat.of().formatHex(last), prev);
                ChainVerifier.Result r = new ChainVerifier().verify(T, store.read(0, size), EntryHash.GENESIS);
                assertTrue(r.valid(), r.failures()::toString);
                assertArrayEquals(next.hash(), r.hashes().get((int) size));
                before = store.size();
                System.out.printf("crash round %d: killed at %d entries, continued at seq %d%n", round, size, next.seq());
            }
        }
    }

    private String log(int round) {
        try {
            return java.nio.file.Files.readString(dir.resolve("child-" + round + ".log"));
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
