package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.store.OperationStore.Begin;
import dev.cloakgate.store.OperationStore.Outcome;

/**
 * A gateway process killed with SIGKILL while a call is in flight: while it lives a second gateway is refused
 * (naming its pid) and an operator can read its store; after, a fresh gateway's store finds the call unknown.
 */
class OperationCrashTest {
    private static final String T = "crashy";

    @TempDir
    Path dir;

    @Test
    void aCallInFlightWhenTheGatewayIsKilledIsUnknownToTheNextGateway() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), OperationCrashChild.class.getName(),
                dir.toString(), T).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    String l;
                    StringBuilder seen = new StringBuilder();
                    while ((l = out.readLine()) != null) {
                        if (l.equals("ready")) {
                            return l;
                        }
                        seen.append(l).append('\n');
                    }
                    return "child ended before it was ready:\n" + seen;
                } catch (java.io.IOException e) {
                    return e.toString();
                }
            }).get(120, TimeUnit.SECONDS);
            assertEquals("ready", line);

            StoreLockedException locked = assertThrows(StoreLockedException.class, () -> SqliteOperationStore.openForGateway(dir, T));
            assertTrue(locked.getMessage().contains("pid " + child.pid()), locked.getMessage());
            try (SqliteOperationStore op = SqliteOperationStore.openForOperator(dir, T)) {
                assertEquals(OperationState.IN_FLIGHT, op.get("op-kill").orElseThrow().state());
                assertEquals("operation_not_unknown",
                        assertThrows(OperationRefusedException.class, () -> op.reconcile("op-kill", Outcome.DONE, false, "alice")).code());
            }
        } finally {
            child.destroyForcibly(); // SIGKILL on Linux
            child.waitFor(30, TimeUnit.SECONDS);
        }
        assertEquals(137, child.exitValue(), "killed by SIGKILL");

        try (SqliteOperationStore s = SqliteOperationStore.openForGateway(dir, T)) {
            assertEquals(List.of("op-kill"), s.sweptAtOpen());
            assertEquals(OperationState.UNKNOWN, s.get("op-kill").orElseThrow().state());
            assertEquals(new Begin.Unknown(), s.begin("op-kill", SqliteOperationStoreTest.start(T, "crm__patch")));
            assertInstanceOf(Begin.Replay.class, s.begin("op-done", SqliteOperationStoreTest.start(T, "crm__patch")));
            assertEquals(OperationState.DONE, s.reconcile("op-kill", Outcome.DONE, false, "alice").state());
        }
    }
}
