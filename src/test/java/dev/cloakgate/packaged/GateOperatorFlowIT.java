package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.gate.TaskContexts;
import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;

/**
 * Issue 11: the whole operator flow of the action gate with the packaged jar's own commands, as the README writes
 * them: keys, contract, release, certification, tenant file, start, a signed task context, a call held for approval,
 * its fingerprint, the approval, the call run once (the upstream's own record), its retry answered from the store,
 * and the ledger exported by the auditor and verified offline.
 */
class GateOperatorFlowIT {

    @Test
    void keygenCertifyStartApproveCallExportAndVerify(@TempDir Path dir) throws Exception {
        GateOperator op = GateOperator.setUp(dir);
        try (GatewayProcess gw = op.start()) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(120)), gw.log());
            assertTrue(gw.log().contains("pay"), gw.log());
            McpHttpClient agent = new McpHttpClient(gw.url("/t/pay/mcp")).headers(Map.of(TaskContexts.HEADER, op.taskHeader));
            assertNotNull(agent.initialize("2025-06-18", Json.object()).get("result"));

            ObjectNode pay = Json.obj("{\"invoice\":\"INV-1001\",\"amount\":300,\"currency\":\"EUR\"}");
            ObjectNode held = agent.request("tools/call", GateOperator.params("pay__pay_invoice", pay));
            assertEquals(-32001, held.path("error").path("code").asInt(), held.toString());
            JsonNode data = held.path("error").path("data");
            assertEquals("approval_required", data.path("reason").asText(), held.toString());
            assertEquals(op.releaseHash, data.path("release").asText());
            String fingerprint = data.path("fingerprint").asText();
            assertTrue(fingerprint.matches("[0-9a-f]{64}"), held.toString());
            assertEquals(List.of(), op.effects(), "a held call never reaches the upstream");

            // the approver: the same call in call.json, its fingerprint, then the receipt into the approvals directory
            Files.writeString(dir.resolve("call.json"), Json.write(pay));
            assertTrue(op.run(GateOperator.FINGERPRINT).lines().anyMatch(fingerprint::equals), "the same fingerprint");
            String approved = op.run(GateOperator.APPROVE);
            assertTrue(approved.contains("approvals/" + fingerprint + ".approval.json"), approved);
            String operationId = approved.lines().filter(l -> l.startsWith("operation id: ")).findFirst().orElseThrow()
                    .substring("operation id: ".length());

            ObjectNode ran = agent.request("tools/call", GateOperator.params("pay__pay_invoice", pay));
            String text = ran.path("result").path("content").path(0).path("text").asText();
            assertTrue(text.startsWith("paid INV-1001"), ran.toString());
            assertFalse(ran.toString().contains("payee.ledger@example-pay.com"), "the result is cloaked: " + ran);
            assertEquals(1, op.effects().size(), "one payment in the upstream's record: " + op.effects());
            ObjectNode again = agent.request("tools/call", GateOperator.params("pay__pay_invoice", pay));
            assertEquals(ran.path("result"), again.path("result"), "the retry is the stored answer");
            assertEquals(1, op.effects().size(), "still one payment: " + op.effects());

            // the auditor, with its own credential, over HTTP
            HttpResponse<byte[]> export = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    gw.url("/admin/t/pay/ledger/export")).header("Authorization", "Bearer " + op.auditorToken).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, export.statusCode());
            Files.write(dir.resolve("over-http.zip"), export.body());
            List<JsonNode> overHttp = GateOperator.entries(dir.resolve("over-http.zip"));
            assertTrue(overHttp.stream().anyMatch(e -> operationId.equals(e.path("operation_id").asText())), overHttp.toString());

            // and with the commands beside the running gateway: export, the key to pin, verify offline
            List<JsonNode> entries = op.exportAndVerify();
            JsonNode call = entries.stream().filter(e -> e.path("kind").asText().equals("mcp_tool_call")
                    && operationId.equals(e.path("operation_id").asText())).findFirst()
                    .orElseThrow(() -> new AssertionError("no mcp_tool_call with the operation id: " + entries));
            assertTrue(call.path("approval").asText().matches("sha256:[0-9a-f]{64}"), call.toString());
            assertTrue(entries.stream().anyMatch(e -> e.path("kind").asText().equals("mcp_tool_result")
                    && operationId.equals(e.path("operation_id").asText()) && "done".equals(e.path("operation_state").asText())),
                    entries.toString());
            for (JsonNode e : entries) {
                assertEquals(op.releaseHash, e.path("release").asText(), "every entry names the release: " + e);
            }
            String all = entries.toString();
            assertFalse(all.contains("INV-1001") || all.contains(fingerprint) || all.contains("payee.ledger"),
                    "no argument value, no plain hash of one, no result value");
        }
    }
}
