package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.evidence.LogTag;
import dev.cloakgate.gate.Approvals;
import dev.cloakgate.gate.CallFingerprint;
import dev.cloakgate.gate.TaskContexts;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.testing.AdminHttp;
import dev.cloakgate.testing.AdminHttp.Answer;
import dev.cloakgate.testing.GateFixture;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.StoredEntries;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 11, the gate's operator actions in the admin API over real HTTP, against a gated tenant written while the
 * gateway runs and the real {@code actions-server.mjs} behind it: an approver's receipt, checked before it is
 * stored, releases a call held for it; an operator lists operations and reconciles one (one ledger entry each); an
 * operator sets a session's task context; the tenant status shows the gate. Each refusal leaves nothing behind.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class AdminGateTest {
    private static final String TENANT = "gate-admin";
    private static final String APPROVER_TOKEN = "gate-admin-approver-4c9e1a7f3b2d8e6c0a5f";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CONTRACT = """
            apiVersion: cloakpipe.co/v1alpha1
            kind: ToolContract
            metadata:
              name: admin-gate-tools
            spec:
              tools:
                pay__pay_invoice:
                  requiresApproval: true
                  arguments:
                    invoice: { type: string, maxLength: 40 }
                    amount: { type: number }
                  required: [invoice, amount]
                pay__crm_patch:
                  arguments:
                    tenant: { bindTo: task.tenant }
                    record: { bindTo: task.record }
                    patch: { type: object, additionalProperties: true }
                  required: [tenant, record, patch]
                pay__hang_pay:
                  sideEffect: true
                  arguments:
                    invoice: { type: string }
                  required: [invoice]
            """;
    private static GateFixture fixture;

    @TestHTTPResource("/t/" + TENANT + "/mcp")
    URI endpoint;

    @TestHTTPResource("/admin/t/")
    URI admin;

    @Inject
    Gateway gateway;

    /** The gated tenant, written once and waited for: calls needing an approval are held for two minutes. */
    private synchronized GateFixture gated() throws Exception {
        if (fixture == null) {
            GateFixture f = new GateFixture(TENANT).release(CONTRACT,
                    List.of("pay__pay_invoice", "pay__crm_patch", "pay__hang_pay", "pay__whoami"), null);
            f.certify();
            f.writeTenant(g -> g.put("approval_wait_seconds", 120), t -> {
                ObjectNode auth = Upstreams.openAuth();
                ObjectNode approver = ((ObjectNode) auth.get("principals")).putObject("approver");
                approver.putArray("roles").add("approver");
                approver.putArray("tokens_sha256").add(Upstreams.sha256(APPROVER_TOKEN));
                t.set("auth", auth);
            });
            await(() -> gateway.tenants().status(TENANT).filter(s -> s.loadedAt() != null && !s.fileRejected()).isPresent(),
                    "the gated tenant is loaded: " + gateway.tenants().status(TENANT));
            fixture = f;
        }
        return fixture;
    }

    private Answer send(String method, String path, String token, byte[] body) throws Exception {
        return new AdminHttp(admin).send(method, path, token, body);
    }

    private Answer send(String method, String path, String token, String body) throws Exception {
        return new AdminHttp(admin).send(method, path, token, body);
    }

    private McpHttpClient agent(Map<String, String> headers) {
        McpHttpClient c = new McpHttpClient(endpoint).headers(headers);
        ObjectNode init = c.initialize("2025-11-25", Json.object());
        assertTrue(init.has("result"), init.toString());
        return c;
    }

    private static CompletableFuture<ObjectNode> call(McpHttpClient c, String tool, ObjectNode args) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", args);
        return c.requestAsync("tools/call", p);
    }

    private static ObjectNode answer(CompletableFuture<ObjectNode> f) throws Exception {
        return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static ObjectNode taskContext(String taskId) {
        return Json.obj("{\"taskId\":\"" + taskId + "\",\"tenant\":\"acme\",\"record\":\"lead-42\"}");
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("never: " + what);
            }
            Thread.sleep(50);
        }
    }

    /** The upstream's own record of one tool's effects (the tests share one upstream record). */
    private static List<String> effects(GateFixture f, String tool) throws java.io.IOException {
        return f.effects().stream().filter(l -> Json.parse(l).path("tool").asText().equals(tool)).toList();
    }

    private long ledgerSize() {
        var ledger = gateway.ledger(TENANT);
        ledger.flush();
        return ledger.size();
    }

    private List<JsonNode> entries(long from, String kind) {
        return StoredEntries.of(gateway.ledger(TENANT), from, kind);
    }

    @Test
    void anApproversReceiptReleasesTheHeldCallAndNothingElseIsStored() throws Exception {
        GateFixture f = gated();
        ObjectNode args = Json.obj("{\"invoice\":\"INV-7731\",\"amount\":120}");
        String fp = CallFingerprint.of(f.releaseHash(), "pay__pay_invoice", args);
        byte[] receipt = Approvals.issue(f.releaseHash(), "pay__pay_invoice", fp, null, null, "approver@test",
                Instant.now(), Duration.ofMinutes(15), f.approver).toJson();
        Ed25519SigningKey stranger = Ed25519SigningKey.generate(new SecureRandom());
        byte[] forged = Approvals.issue(f.releaseHash(), "pay__pay_invoice", fp, null, null, "approver@test",
                Instant.now(), Duration.ofMinutes(15), stranger).toJson();
        byte[] otherRelease = Approvals.issue("sha256:" + "0".repeat(64), "pay__pay_invoice", fp, null, null,
                "approver@test", Instant.now(), Duration.ofMinutes(15), f.approver).toJson();
        byte[] expired = Approvals.issue(f.releaseHash(), "pay__pay_invoice", fp, null, null, "approver@test",
                Instant.now().minus(Duration.ofHours(2)), Duration.ofMinutes(15), f.approver).toJson();
        long before = ledgerSize();

        try (McpHttpClient agent = agent(Map.of())) {
            String tag = LogTag.of(agent.sessionId());
            CompletableFuture<ObjectNode> held = call(agent, "pay__pay_invoice", args);
            // the gateway has the call (the session is busy answering it) and holds it: no receipt yet
            await(() -> {
                try {
                    for (JsonNode s : send("GET", TENANT + "/sessions", Upstreams.OPERATOR_TOKEN, (byte[]) null).json()
                            .path("sessions")) {
                        if (s.path("session").asText().equals(tag) && s.path("busy").asBoolean()) {
                            return true;
                        }
                    }
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "the agent's call in flight");

            Answer byOperator = send("POST", TENANT + "/approvals", Upstreams.OPERATOR_TOKEN, receipt);
            assertEquals(403, byOperator.status(), byOperator.body());
            assertEquals("role_required", byOperator.error());
            Answer untrusted = send("POST", TENANT + "/approvals", APPROVER_TOKEN, forged);
            assertEquals(422, untrusted.status(), untrusted.body());
            assertEquals("approval_untrusted", untrusted.error());
            Answer mismatch = send("POST", TENANT + "/approvals", APPROVER_TOKEN, otherRelease);
            assertEquals(422, mismatch.status(), mismatch.body());
            assertEquals("approval_mismatch", mismatch.error());
            Answer late = send("POST", TENANT + "/approvals", APPROVER_TOKEN, expired);
            assertEquals(422, late.status(), late.body());
            assertEquals("approval_expired", late.error());
            Answer garbage = send("POST", TENANT + "/approvals", APPROVER_TOKEN, "{\"payload\":\"not a receipt\"}");
            assertEquals(400, garbage.status(), garbage.body());
            assertEquals("approval_unreadable", garbage.error());
            Answer noGate = send("POST", "fs/approvals", Upstreams.OPERATOR_TOKEN, receipt);
            assertEquals(403, noGate.status(), "the role is asked first, as everywhere: " + noGate.body());

            assertFalse(Files.exists(f.approvals.resolve(Approvals.fileName(fp))), "a refused receipt is not stored");
            assertFalse(held.isDone(), "the call is held, not answered, while no valid receipt exists: "
                    + (held.isDone() ? held.join() : ""));
            assertEquals(List.of(), effects(f, "pay_invoice"), "nothing reached the upstream");

            Answer stored = send("POST", TENANT + "/approvals", APPROVER_TOKEN, receipt);
            assertEquals(201, stored.status(), stored.body());
            assertEquals(fp, stored.json().path("fingerprint").asText());
            assertEquals("pay__pay_invoice", stored.json().path("tool").asText());
            assertEquals(f.releaseHash(), stored.json().path("release").asText());
            String operationId = stored.json().path("operation_id").asText();
            assertFalse(operationId.isEmpty(), stored.body());

            ObjectNode paid = answer(held);
            assertFalse(paid.has("error"), paid.toString());
            assertTrue(paid.path("result").path("content").get(0).path("text").asText().startsWith("paid INV-7731"),
                    paid.toString());
            assertEquals(1, effects(f, "pay_invoice").size(), "the upstream's own record: one payment " + f.effects());
            assertTrue(Files.exists(f.approvals.resolve(Approvals.fileName(fp))), "the receipt is in the approvals dir");
        }

        List<JsonNode> received = entries(before, "approval_received");
        assertEquals(1, received.size(), "one approval_received entry: " + received);
        assertEquals("approver", received.get(0).path("principal").asText());
        assertEquals("sha256:" + java.util.HexFormat.of().formatHex(
                java.security.MessageDigest.getInstance("SHA-256").digest(receipt)), received.get(0).path("approval").asText());
        assertEquals("pay__pay_invoice", received.get(0).path("tool").asText());
    }

    @Test
    void anOperatorListsAndReconcilesUnknownOperationsOnceEachOnTheLedger() throws Exception {
        GateFixture f = gated();
        String header = f.taskHeader(taskContext("t-ops-1"), f.orchestrator);
        try (McpHttpClient agent = agent(Map.of(TaskContexts.HEADER, header))) {
            ObjectNode who = answer(call(agent, "pay__whoami", Json.object()));
            long pid = Long.parseLong(who.path("result").path("content").get(0).path("text").asText().replace("pid=", ""));
            CompletableFuture<ObjectNode> first = call(agent, "pay__hang_pay", Json.obj("{\"invoice\":\"H-1\"}"));
            CompletableFuture<ObjectNode> second = call(agent, "pay__hang_pay", Json.obj("{\"invoice\":\"H-2\"}"));
            await(() -> {
                try {
                    return effects(f, "hang_pay").size() == 2; // both reached the upstream: they are in flight
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "both payments reach the upstream");
            Answer inFlight = send("GET", TENANT + "/operations?state=in_flight", Upstreams.OPERATOR_TOKEN, (byte[]) null);
            assertEquals(200, inFlight.status(), inFlight.body());
            assertEquals(2, inFlight.json().path("operations").size(), inFlight.body());

            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            ObjectNode a1 = answer(first);
            ObjectNode a2 = answer(second);
            for (ObjectNode a : List.of(a1, a2)) {
                assertEquals(-32002, a.path("error").path("code").asInt(), a.toString());
                assertEquals("operation_unknown", a.path("error").path("data").path("reason").asText(), a.toString());
            }
            String done = a1.path("error").path("data").path("operationId").asText();
            String notApplied = a2.path("error").path("data").path("operationId").asText();

            Answer unknown = send("GET", TENANT + "/operations?state=unknown", Upstreams.OPERATOR_TOKEN, (byte[]) null);
            assertEquals(200, unknown.status(), unknown.body());
            Set<String> ids = java.util.stream.StreamSupport.stream(unknown.json().path("operations").spliterator(), false)
                    .map(o -> o.path("id").asText()).collect(Collectors.toSet());
            assertEquals(Set.of(done, notApplied), ids, unknown.body());
            for (JsonNode o : unknown.json().path("operations")) {
                assertEquals("pay__hang_pay", o.path("tool").asText());
                assertEquals("pay", o.path("upstream").asText());
                assertEquals(1, o.path("attempts").asInt());
                assertFalse(o.has("result") || o.has("arguments"), "never a result or an argument: " + o);
            }
            assertFalse(unknown.body().contains("H-1"), "no argument value in the listing: " + unknown.body());
            Answer badState = send("GET", TENANT + "/operations?state=lost", Upstreams.OPERATOR_TOKEN, (byte[]) null);
            assertEquals(400, badState.status(), badState.body());
            assertEquals("bad_request", badState.error());
            Answer byApprover = send("GET", TENANT + "/operations", APPROVER_TOKEN, (byte[]) null);
            assertEquals(403, byApprover.status(), byApprover.body());
            Answer noGate = send("GET", "fs/operations", Upstreams.OPERATOR_TOKEN, (byte[]) null);
            assertEquals(404, noGate.status(), noGate.body());
            assertEquals("no_gate", noGate.error());

            long before = ledgerSize();
            String path = TENANT + "/operations/";
            Answer byApproverReconcile = send("POST", path + done + "/reconcile", APPROVER_TOKEN, "{\"outcome\":\"done\"}");
            assertEquals(403, byApproverReconcile.status(), byApproverReconcile.body());
            Answer badBody = send("POST", path + done + "/reconcile", Upstreams.OPERATOR_TOKEN, "{\"outcome\":\"maybe\"}");
            assertEquals(400, badBody.status(), badBody.body());
            assertEquals("bad_request", badBody.error());
            Answer missing = send("POST", path + "op-no-such-operation/reconcile", Upstreams.OPERATOR_TOKEN,
                    "{\"outcome\":\"done\"}");
            assertEquals(404, missing.status(), missing.body());
            assertEquals("operation_not_found", missing.error());

            Answer r1 = send("POST", path + done + "/reconcile", Upstreams.OPERATOR_TOKEN, "{\"outcome\":\"done\"}");
            assertEquals(200, r1.status(), r1.body());
            assertEquals("done", r1.json().path("state").asText());
            assertEquals("operator", r1.json().path("reconciled_by").asText());
            Answer again = send("POST", path + done + "/reconcile", Upstreams.OPERATOR_TOKEN,
                    "{\"outcome\":\"not-applied\",\"force\":true}");
            assertEquals(409, again.status(), again.body());
            assertEquals("operation_not_unknown", again.error());
            Answer r2 = send("POST", path + notApplied + "/reconcile", Upstreams.OPERATOR_TOKEN,
                    "{\"outcome\":\"not-applied\",\"force\":false}");
            assertEquals(200, r2.status(), r2.body());
            assertEquals("not_applied", r2.json().path("state").asText());

            // the retry of the call settled as done is not forwarded: the operator's finding answers it
            ObjectNode retry = answer(call(agent, "pay__hang_pay", Json.obj("{\"invoice\":\"H-1\"}")));
            assertEquals(-32002, retry.path("error").path("code").asInt(), retry.toString());
            assertEquals("operation_reconciled", retry.path("error").path("data").path("reason").asText(), retry.toString());
            assertEquals(2, effects(f, "hang_pay").size(), "the retry never reached the upstream: " + f.effects());

            await(() -> entries(before, "operation_reconciled").size() >= 2, "both reconciliations on the ledger");
            // the gate's worker puts the outbox on the ledger every 2 s: one more round must add nothing
            Thread.sleep(3000);
            List<JsonNode> reconciled = entries(before, "operation_reconciled");
            assertEquals(2, reconciled.size(), "one operation_reconciled entry per reconciliation: " + reconciled);
            Map<String, String> states = reconciled.stream().collect(Collectors.toMap(
                    e -> e.path("operation_id").asText(), e -> e.path("operation_state").asText()));
            assertEquals(Map.of(done, "done", notApplied, "not_applied"), states);
            reconciled.forEach(e -> assertEquals("operator", e.path("principal").asText(), e.toString()));
        }
    }

    @Test
    void anOperatorSetsTheTaskContextABoundCallNeeds() throws Exception {
        GateFixture f = gated();
        ObjectNode args = Json.obj("{\"tenant\":\"acme\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"qualified\"}}");
        try (McpHttpClient agent = agent(Map.of())) {
            String tag = LogTag.of(agent.sessionId());
            ObjectNode refused = answer(call(agent, "pay__crm_patch", args));
            assertEquals("task_context_missing", refused.path("error").path("data").path("reason").asText(),
                    refused.toString());

            byte[] context = TaskContexts.sign(taskContext("t-crm-1"), Instant.now().minusSeconds(5), Duration.ofHours(1),
                    f.orchestrator).toJson();
            byte[] forged = TaskContexts.sign(taskContext("t-crm-1"), Instant.now().minusSeconds(5), Duration.ofHours(1),
                    Ed25519SigningKey.generate(new SecureRandom())).toJson();
            String path = TENANT + "/sessions/" + tag + "/task-context";
            Answer untrusted = send("PUT", path, Upstreams.OPERATOR_TOKEN, forged);
            assertEquals(403, untrusted.status(), untrusted.body());
            assertEquals("task_context_untrusted", untrusted.error());
            Answer unreadable = send("PUT", path, Upstreams.OPERATOR_TOKEN, "not an envelope");
            assertEquals(400, unreadable.status(), unreadable.body());
            assertEquals("task_context_unreadable", unreadable.error());
            Answer byApprover = send("PUT", path, APPROVER_TOKEN, context);
            assertEquals(403, byApprover.status(), byApprover.body());
            assertEquals("role_required", byApprover.error());
            Answer noSession = send("PUT", TENANT + "/sessions/0011223344556677/task-context", Upstreams.OPERATOR_TOKEN,
                    context);
            assertEquals(404, noSession.status(), noSession.body());
            assertEquals("unknown_session", noSession.error());

            ObjectNode still = answer(call(agent, "pay__crm_patch", args));
            assertEquals("task_context_missing", still.path("error").path("data").path("reason").asText(),
                    "a refused context sets nothing: " + still);
            assertEquals(List.of(), effects(f, "crm_patch"));

            Answer set = send("PUT", path, Upstreams.OPERATOR_TOKEN, context);
            assertEquals(204, set.status(), set.body());
            ObjectNode patched = answer(call(agent, "pay__crm_patch", args));
            assertFalse(patched.has("error"), patched.toString());
            assertEquals("patched lead-42", patched.path("result").path("content").get(0).path("text").asText());
            assertEquals(1, effects(f, "crm_patch").size(), f.effects().toString());
        }
    }

    @Test
    void theTenantStatusShowsItsGate() throws Exception {
        GateFixture f = gated();
        Answer status = send("GET", TENANT + "/status", Upstreams.OPERATOR_TOKEN, (byte[]) null);
        assertEquals(200, status.status(), status.body());
        JsonNode gate = status.json().path("gate");
        assertEquals(f.releaseHash(), gate.path("release").asText(), status.body());
        assertEquals("enforce", gate.path("mode").asText());
        assertEquals(GateFixture.ENVIRONMENT, gate.path("environment").asText());
        assertTrue(gate.path("certification").asText().startsWith("valid until "), status.body());
        assertEquals(1, gate.path("contracts").size(), status.body());
        assertTrue(gate.path("contracts").get(0).asText().startsWith("policy:admin-gate-tools@sha256:"), status.body());
        for (String state : List.of("in_flight", "done", "failed", "unknown", "not_applied")) {
            assertTrue(gate.path("operations").path(state).isIntegralNumber(), state + ": " + status.body());
        }
        assertEquals(f.approvals.toAbsolutePath().normalize().toString(), gate.path("approvals_dir").asText());

        Answer plain = send("GET", "fs/status", Upstreams.OPERATOR_TOKEN, (byte[]) null);
        assertEquals(200, plain.status(), plain.body());
        assertTrue(plain.json().path("gate").isNull(), "a tenant without a gate shows none: " + plain.body());
    }
}
