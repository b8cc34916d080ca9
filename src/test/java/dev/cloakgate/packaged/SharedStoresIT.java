package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.gate.TaskContexts;
import dev.cloakgate.testing.AdminHttp;
import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: two packaged gateways ({@code cloakgate.store=postgresql}, replicas {@code r0} and {@code r1}, each with its
 * own data dir) on one PostgreSQL database, in front of the gated tenant {@code pay} of {@link GateOperator} (whose
 * upstream keeps its own record of every effect). The operations store and the approval receipts are the database's:
 * an approved payment sent through both at once is paid once, and a call in flight on a replica killed with SIGKILL
 * becomes unknown after the heartbeat timeout and is reconciled through the other one's admin API.
 */
class SharedStoresIT {
    private static final Duration WAIT = Duration.ofSeconds(120);

    /** A tenant principal with the operator and approver roles, for the admin API. */
    private record Cluster(GateOperator op, String adminToken, TestPostgres.Database db) {
    }

    private static Cluster setUp(Path dir) throws Exception {
        GateOperator op = GateOperator.setUp(dir);
        byte[] secret = new byte[24];
        new java.security.SecureRandom().nextBytes(secret);
        String token = "ops-" + HexFormat.of().formatHex(secret);
        String sha = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(StandardCharsets.UTF_8)));
        Path tenant = dir.resolve("tenants/pay.json");
        String file = Files.readString(tenant);
        String withOps = file.replace("\"principals\": {", "\"principals\": { \"ops\": { \"roles\": [\"operator\", \"approver\"],"
                + " \"tokens_sha256\": [\"" + sha + "\"] },");
        assertFalse(file.equals(withOps), file);
        Files.writeString(tenant, withOps);
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        Files.writeString(dir.resolve("cluster.key"), Base64.getEncoder().encodeToString(key) + "\n");
        return new Cluster(op, token, TestPostgres.server().database("shared_stores"));
    }

    /** Replica {@code id} on {@code port}, its own data dir, the shared database, a 1 s heartbeat and a 6 s timeout. */
    private static GatewayProcess replica(Cluster c, String id, int port, String peers) throws Exception {
        String line = "java -Dcloakgate.tenants-dir=tenants -Dcloakgate.data-dir=data-" + id
                + " -Dcloakgate.ledger.signing-key-file=ledger.key -Dcloakgate.ledger.log-identity=shared.stores.example"
                + " -Dquarkus.http.port=" + port + " "
                + String.join(" ", c.db().gatewayProperties()) + " -Dcloakgate.cluster.replica-id=" + id
                + " -Dcloakgate.cluster.key-file=cluster.key -Dcloakgate.cluster.peers=" + peers
                + " -Dcloakgate.cluster.heartbeat-interval=1s -Dcloakgate.cluster.heartbeat-timeout=6s"
                + " -jar target/quarkus-app/quarkus-run.jar";
        return GatewayProcess.startAsWritten(c.op().dir, line);
    }

    private static McpHttpClient agent(GateOperator op, int port) {
        McpHttpClient agent = new McpHttpClient(URI.create("http://127.0.0.1:" + port + "/t/pay/mcp"))
                .headers(Map.of(TaskContexts.HEADER, op.taskHeader));
        JsonNode init = agent.initialize("2025-06-18", Json.object());
        assertTrue(init.has("result"), init.toString());
        return agent;
    }

    private static AdminHttp admin(int port) {
        return new AdminHttp(URI.create("http://127.0.0.1:" + port + "/admin/t/"));
    }

    @Test
    void anApprovedCallSentThroughBothReplicasAtOnceIsPaidOnceAndAKilledReplicasCallIsReconciledThroughTheOther(
            @TempDir Path dir) throws Exception {
        Cluster c = setUp(dir);
        GateOperator op = c.op();
        int p0 = NodeFixtures.freePort();
        int p1 = NodeFixtures.freePort();
        String peers = "r0=http://127.0.0.1:" + p0 + ",r1=http://127.0.0.1:" + p1;
        try (GatewayProcess r0 = replica(c, "r0", p0, peers); GatewayProcess r1 = replica(c, "r1", p1, peers)) {
            assertTrue(r0.awaitReady(WAIT), r0.log());
            assertTrue(r1.awaitReady(WAIT), r1.log());

            // the approver hands the receipt in through r0's admin API only
            ObjectNode pay = Json.obj("{\"invoice\":\"INV-2001\",\"amount\":300,\"currency\":\"EUR\"}");
            Files.writeString(dir.resolve("call.json"), Json.write(pay));
            String approved = op.run(GateOperator.APPROVE);
            String receiptPath = approved.lines().filter(l -> l.contains("approvals/") && l.contains(".approval.json"))
                    .map(l -> l.substring(l.indexOf("approvals/"), l.indexOf(".approval.json") + ".approval.json".length()))
                    .findFirst().orElseThrow(() -> new AssertionError(approved));
            AdminHttp.Answer handedIn = admin(p0).send("POST", "pay/approvals", c.adminToken(), Files.readAllBytes(dir.resolve(receiptPath)));
            assertEquals(201, handedIn.status(), handedIn.body());

            // the same approved payment through both replicas at once
            McpHttpClient a0 = agent(op, p0);
            McpHttpClient a1 = agent(op, p1);
            CompletableFuture<ObjectNode> via0 = a0.requestAsync("tools/call", GateOperator.params("pay__pay_invoice", pay));
            CompletableFuture<ObjectNode> via1 = a1.requestAsync("tools/call", GateOperator.params("pay__pay_invoice", pay));
            List<ObjectNode> answers = List.of(via0.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS),
                    via1.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));
            int paid = 0;
            for (ObjectNode a : answers) {
                if (a.has("result")) {
                    assertTrue(a.path("result").path("content").path(0).path("text").asText().startsWith("paid INV-2001"), a.toString());
                    paid++;
                } else {
                    // the other replica saw the call in flight: both replicas read r0's receipt and the one operation
                    assertEquals("operation_in_flight", a.path("error").path("data").path("reason").asText(), a.toString());
                }
            }
            assertTrue(paid >= 1, answers.toString());
            assertEquals(1, op.effects().size(), "one payment in the upstream's own record: " + op.effects());
            ObjectNode again = a1.request("tools/call", GateOperator.params("pay__pay_invoice", pay));
            assertTrue(again.path("result").path("content").path(0).path("text").asText().startsWith("paid INV-2001"), again.toString());
            assertEquals(1, op.effects().size(), "a retry through either replica is the stored answer: " + op.effects());

            // a call hangs on r0, which is killed
            ObjectNode hang = Json.obj("{\"invoice\":\"INV-2077\"}");
            CompletableFuture<ObjectNode> pending = a0.requestAsync("tools/call", GateOperator.params("pay__hang_pay", hang));
            long end = System.nanoTime() + WAIT.toNanos();
            while (op.effects().size() < 2 && System.nanoTime() < end && !pending.isDone()) {
                Thread.sleep(50);
            }
            assertEquals(2, op.effects().size(), "the hanging call reached the upstream: " + op.effects());
            r0.process().destroyForcibly(); // SIGKILL
            r0.process().waitFor();
            ProcessHandle.of(Json.parse(op.effects().get(1)).path("pid").asLong()).ifPresent(ProcessHandle::destroyForcibly);

            // after the heartbeat timeout, r1 lists r0's call as unknown and reconciles it
            String operationId = null;
            end = System.nanoTime() + WAIT.toNanos();
            while (operationId == null && System.nanoTime() < end) {
                AdminHttp.Answer unknown = admin(p1).send("GET", "pay/operations?state=unknown", c.adminToken());
                assertEquals(200, unknown.status(), unknown.body());
                for (JsonNode o : unknown.json().path("operations")) {
                    if (o.path("tool").asText().equals("pay__hang_pay")) {
                        operationId = o.path("id").asText();
                    }
                }
                if (operationId == null) {
                    Thread.sleep(250);
                }
            }
            assertTrue(operationId != null, "r0's call became unknown on r1: " + r1.log());
            ObjectNode refused = a1.request("tools/call", GateOperator.params("pay__hang_pay", hang));
            assertEquals("reconcile_before_retry", refused.path("error").path("data").path("reason").asText(), refused.toString());
            AdminHttp.Answer reconciled = admin(p1).send("POST", "pay/operations/" + operationId + "/reconcile", c.adminToken(),
                    "{\"outcome\":\"not-applied\"}");
            assertEquals(200, reconciled.status(), reconciled.body());
            assertEquals("not_applied", reconciled.json().path("state").asText(), reconciled.body());
            List<String> before = new ArrayList<>(op.effects());
            CompletableFuture<ObjectNode> retry = a1.requestAsync("tools/call", GateOperator.params("pay__hang_pay", hang));
            end = System.nanoTime() + WAIT.toNanos();
            while (op.effects().size() < 3 && System.nanoTime() < end && !retry.isDone()) {
                Thread.sleep(50);
            }
            assertEquals(before.size() + 1, op.effects().size(), "the reconciled call is forwarded again, by r1: " + op.effects());
            ProcessHandle.of(Json.parse(op.effects().get(2)).path("pid").asLong()).ifPresent(ProcessHandle::destroyForcibly);
            assertTrue(r1.log().contains("stopped beating"), r1.log());
        }
    }
}
