package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.gate.TaskContexts;
import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;

/**
 * Issue 11: the packaged gateway killed with SIGKILL while a side-effecting call is in flight. The next start makes the
 * operation {@code unknown} (the operations store and the ledger say so), a retry is refused until an operator
 * reconciles it with the command, and then runs; a second gateway on the same data directory refuses to start.
 */
class GateCrashIT {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void aCallInFlightWhenTheGatewayIsKilledIsUnknownAfterTheRestartUntilReconciled(@TempDir Path dir) throws Exception {
        GateOperator op = GateOperator.setUp(dir);
        ObjectNode hang = Json.obj("{\"invoice\":\"INV-77\"}");
        try (GatewayProcess gw = op.start()) {
            assertTrue(gw.awaitReady(WAIT), gw.log());

            // a second gateway on the same data directory refuses to start, naming the holder
            try (GatewayProcess second = op.start()) {
                assertNotEquals(0, second.awaitExit(WAIT), second.log());
                assertTrue(second.log().contains("pid " + gw.process().pid()), second.log());
            }

            McpHttpClient agent = agent(op, gw);
            CompletableFuture<ObjectNode> pending = agent.requestAsync("tools/call", GateOperator.params("pay__hang_pay", hang));
            awaitEffects(op, 1, pending);
            gw.process().destroyForcibly(); // SIGKILL, the upstream holding the call
            gw.process().waitFor();
            killUpstream(op.effects().get(0));
        }

        try (GatewayProcess gw = op.start()) {
            assertTrue(gw.awaitReady(WAIT), gw.log());
            String listed = op.run(GateOperator.OPERATIONS_UNKNOWN);
            List<String> rows = listed.lines().filter(l -> l.startsWith("op-")).toList();
            assertEquals(1, rows.size(), listed);
            assertTrue(rows.get(0).contains(" unknown tool=pay__hang_pay "), listed);
            String operationId = rows.get(0).split(" ")[0];

            List<JsonNode> entries = op.exportAndVerify();
            JsonNode swept = entries.stream().filter(e -> e.path("kind").asText().equals("mcp_tool_result")
                    && operationId.equals(e.path("operation_id").asText())).findFirst()
                    .orElseThrow(() -> new AssertionError("the start put the unknown operation on the ledger: " + entries));
            assertEquals("unknown", swept.path("operation_state").asText(), swept.toString());
            assertEquals(op.releaseHash, swept.path("release").asText(), swept.toString());

            McpHttpClient agent = agent(op, gw);
            ObjectNode refused = agent.request("tools/call", GateOperator.params("pay__hang_pay", hang));
            assertEquals(-32002, refused.path("error").path("code").asInt(), refused.toString());
            assertEquals("reconcile_before_retry", refused.path("error").path("data").path("reason").asText(), refused.toString());
            assertEquals(operationId, refused.path("error").path("data").path("operationId").asText(), refused.toString());
            assertEquals(1, op.effects().size(), "the refused retry never reached the upstream: " + op.effects());

            // the operator checked the payment system: it did not happen
            String reconciled = op.run(GateOperator.RECONCILE.replace("OPERATION_ID", operationId));
            assertTrue(reconciled.contains(operationId + " not_applied"), reconciled);
            CompletableFuture<ObjectNode> retry = agent.requestAsync("tools/call", GateOperator.params("pay__hang_pay", hang));
            awaitEffects(op, 2, retry);
            killUpstream(op.effects().get(1));
        }
    }

    private static McpHttpClient agent(GateOperator op, GatewayProcess gw) {
        McpHttpClient agent = new McpHttpClient(gw.url("/t/pay/mcp")).headers(Map.of(TaskContexts.HEADER, op.taskHeader));
        JsonNode init = agent.initialize("2025-06-18", Json.object());
        assertTrue(init.has("result"), init.toString());
        return agent;
    }

    /** Waits until the upstream's record shows {@code n} effects; the call must still be unanswered (it hangs). */
    private static void awaitEffects(GateOperator op, int n, CompletableFuture<ObjectNode> pending) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        while (op.effects().size() < n && System.nanoTime() < end && !pending.isDone()) {
            Thread.sleep(50);
        }
        assertEquals(n, op.effects().size(), "the upstream's record: " + op.effects()
                + (pending.isDone() ? " (answered: " + pending.getNow(null) + ")" : ""));
    }

    /** The upstream child the killed gateway left (its pid is in its record), so nothing outlives the test. */
    private static void killUpstream(String effect) {
        ProcessHandle.of(Json.parse(effect).path("pid").asLong()).ifPresent(ProcessHandle::destroyForcibly);
    }
}
