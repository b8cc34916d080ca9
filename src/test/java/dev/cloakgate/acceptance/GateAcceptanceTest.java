package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.gate.CallFingerprint;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.testing.GateFixture;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.StoredEntries;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 11 over the protocol: real HTTP to the running gateway, a real stdio upstream with side effects that keeps its
 * own record ({@code actions-server.mjs}), gate documents signed as the commands sign them. Each scenario gets its own
 * tenant, written while the gateway runs.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class GateAcceptanceTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CONTRACT = GateFixture.PAY_CONTRACT + """
                pay__crm_patch:
                  arguments:
                    tenant: { bindTo: task.tenant }
                    record: { type: string, minLength: 6, maxLength: 12, pattern: "lead-[0-9]+" }
                    patch:
                      type: object
                      minProperties: 1
                      maxProperties: 2
                      additionalProperties: false
                      properties:
                        stage: { enum: [qualified, review] }
                        kind: { const: lead }
                        score: { type: integer, minimum: 0, maximum: 100 }
                        tags: { type: array, minItems: 1, maxItems: 2, items: { type: string } }
                  required: [tenant, record, patch]
            """;
    private static final List<String> RELEASED = List.of("pay__pay_invoice", "pay__hang_pay", "pay__crm_patch",
            "pay__delete_record", "pay__whoami");

    @TestHTTPResource("/")
    URI base;

    @Inject
    Gateway gateway;

    // ---- the release gate ----

    @Test
    void aToolOutsideTheReleaseIsRefusedAndOneInsideRuns() throws Exception {
        GateFixture f = gated("gate-rel", null, null);
        McpHttpClient c = session(f, null);
        List<String> listed = new java.util.ArrayList<>();
        c.request("tools/list", Json.object()).path("result").path("tools").forEach(t -> listed.add(t.path("name").asText()));
        assertTrue(listed.contains("pay__whoami") && !listed.contains("pay__fail_pay"),
                "the model is shown the release's tools only: " + listed);
        assertTrue(text(call(c, "pay__whoami", Json.object())).startsWith("pid="));
        ObjectNode refused = call(c, "pay__fail_pay", args("invoice", "INV-1"));
        assertRefused(refused, -32001, "tool_not_in_release");
        assertEquals(f.releaseHash(), refused.path("error").path("data").path("release").asText());
        assertEquals("pay__fail_pay", refused.path("error").path("data").path("tool").asText());
        assertTrue(f.effects().stream().noneMatch(l -> l.contains("fail_pay")), "a refused call never reaches the upstream");
    }

    @Test
    void aCertificationThatExpiresDuringASessionStopsTheNextCall() throws Exception {
        GateFixture f = gated("gate-exp", g -> g.put("clock_skew_seconds", 0), null);
        McpHttpClient c = session(f, null);
        Instant until = Instant.now().plusSeconds(8);
        f.certify(f.releaseKey, GateFixture.ENVIRONMENT, Instant.now().minusSeconds(60), until);
        Thread.sleep(1500); // the gateway looks at the certification file again at most once a second
        assertTrue(text(call(c, "pay__whoami", Json.object())).startsWith("pid="), "the call before expiry passes");
        while (Instant.now().isBefore(until.plusMillis(1500))) {
            Thread.sleep(250);
        }
        assertRefused(call(c, "pay__whoami", Json.object()), -32001, "certification_expired");
    }

    @Test
    void revokedStatementRevokedKeyWrongEnvironmentAndAChangedManifestAreEachRefused() throws Exception {
        GateFixture rs = gated("gate-rs", null, null);
        String statement = "sha256:" + sha256(Dsse.Envelope.parse(Files.readAllBytes(rs.certification)).payload());
        rs.writeTenant(g -> g.putArray("revoked_statements").add(statement), null);
        awaitLoaded(rs, 2);
        assertRefused(call(session(rs, null), "pay__whoami", Json.object()), -32001, "statement_revoked");

        GateFixture rk = gated("gate-rk", g -> g.putArray("revoked_keys").add("0000000000000000"), null);
        rk.writeTenant(g -> g.putArray("revoked_keys").add(SignerKeys.keyId(rk.releaseKey.publicKey())), null);
        awaitLoaded(rk, 2);
        assertRefused(call(session(rk, null), "pay__whoami", Json.object()), -32001, "key_revoked");

        GateFixture env = gated("gate-env", g -> g.put("environment", "staging"), null);
        assertRefused(call(session(env, null), "pay__whoami", Json.object()), -32001, "environment_mismatch");

        GateFixture changed = new GateFixture("gate-byte");
        changed.release(CONTRACT, RELEASED, null).certify();
        // one byte after certification: the release the gate enforces is not the one certified
        Files.writeString(changed.manifest, Files.readString(changed.manifest).replace("gate-byte-release", "gate-byte-releasf"));
        changed.writeTenant(null, null);
        awaitLoaded(changed, 1);
        assertRefused(call(session(changed, null), "pay__whoami", Json.object()), -32001, "release_mismatch");
    }

    @Test
    void anUpstreamPresentingAnotherIdentityIsRefusedAtInitialize() throws Exception {
        GateFixture f = new GateFixture("gate-id");
        f.release(CONTRACT, RELEASED, "    pay:\n      serverInfo:\n        name: acme-ledger\n").certify();
        f.writeTenant(null, null);
        awaitLoaded(f, 1);
        ObjectNode init = new McpHttpClient(base.resolve("/t/gate-id/mcp")).initialize("2025-06-18", Json.object());
        assertEquals("upstream_identity_mismatch", init.path("error").path("data").path("reason").asText(), init.toString());
        assertEquals("pay", init.path("error").path("data").path("upstream").asText());

        // the tools it declares, bound by digest: checked before the first call to it (after the client's initialized)
        String digest;
        try (dev.cloakgate.testing.McpStdioClient direct = new dev.cloakgate.testing.McpStdioClient(List.of("node",
                dev.cloakgate.testing.NodeFixtures.DIR.resolve("actions-server.mjs").toString(), "stdio"),
                dev.cloakgate.testing.NodeFixtures.DIR)) {
            direct.initialize("2025-06-18", Json.object());
            List<JsonNode> tools = new java.util.ArrayList<>();
            direct.request("tools/list", Json.object()).path("result").path("tools").forEach(tools::add);
            digest = dev.cloakgate.gate.ReleaseManifest.toolsDigest(tools);
        }
        GateFixture same = new GateFixture("gate-tools");
        same.release(CONTRACT, RELEASED, "    pay:\n      serverInfo:\n        name: acme-pay\n      toolsDigest: " + digest
                + "\n").certify();
        same.writeTenant(null, null);
        awaitLoaded(same, 1);
        assertTrue(text(call(session(same, null), "pay__whoami", Json.object())).startsWith("pid="));

        GateFixture other = new GateFixture("gate-tools-other");
        other.release(CONTRACT, RELEASED, "    pay:\n      serverInfo:\n        name: acme-pay\n      toolsDigest: sha256:"
                + "0".repeat(64) + "\n").certify();
        other.writeTenant(null, null);
        awaitLoaded(other, 1);
        ObjectNode refused = call(session(other, null), "pay__whoami", Json.object());
        assertRefused(refused, -32001, "upstream_identity_mismatch");
        assertEquals("pay", refused.path("error").path("data").path("upstream").asText());
        assertEquals(0, other.effects().size());
    }

    // ---- the action boundary ----

    @Test
    void eachContractKeywordIsHonouredOnceAndViolatedOnce() throws Exception {
        GateFixture f = gated("gate-kw", null, null);
        McpHttpClient c = session(f, f.taskHeader(task("t-kw"), f.orchestrator));
        String p = "spec.tools.pay__crm_patch.arguments.";
        assertEquals("patched lead-42", text(call(c, "pay__crm_patch", crm("demo-co", "lead-42",
                "{\"stage\":\"qualified\",\"score\":50}"))));
        assertEquals("patched lead-43", text(call(c, "pay__crm_patch", crm("demo-co", "lead-43",
                "{\"kind\":\"lead\",\"tags\":[\"a\",\"b\"]}"))));
        Map<ObjectNode, String[]> violations = new java.util.LinkedHashMap<>();
        violations.put(crm("other-co", "lead-42", "{\"stage\":\"review\"}"), new String[] { "task_binding_mismatch", p + "tenant" });
        violations.put(crm("demo-co", 42, "{\"stage\":\"review\"}"), new String[] { "argument_type", p + "record" });
        violations.put(crm("demo-co", "lead-1234567890", "{\"stage\":\"review\"}"), new String[] { "argument_length", p + "record" });
        violations.put(crm("demo-co", "leadx42", "{\"stage\":\"review\"}"), new String[] { "argument_pattern", p + "record" });
        violations.put(crm("demo-co", "lead-42", "{}"), new String[] { "argument_count", p + "patch" });
        violations.put(crm("demo-co", "lead-42", "{\"stage\":\"review\",\"kind\":\"lead\",\"score\":1}"),
                new String[] { "argument_count", p + "patch" });
        violations.put(crm("demo-co", "lead-42", "{\"stage\":\"won\"}"), new String[] { "argument_enum", p + "patch.properties.stage" });
        violations.put(crm("demo-co", "lead-42", "{\"kind\":\"deal\"}"), new String[] { "argument_const", p + "patch.properties.kind" });
        violations.put(crm("demo-co", "lead-42", "{\"score\":101}"), new String[] { "argument_range", p + "patch.properties.score" });
        violations.put(crm("demo-co", "lead-42", "{\"tags\":[]}"), new String[] { "argument_count", p + "patch.properties.tags" });
        violations.put(crm("demo-co", "lead-42", "{\"tags\":[\"a\",\"b\",\"c\"]}"),
                new String[] { "argument_count", p + "patch.properties.tags" });
        violations.put(crm("demo-co", "lead-42", "{\"tags\":[7]}"), new String[] { "argument_type", p + "patch.properties.tags" });
        violations.put(crm("demo-co", "lead-42", "{\"owner\":\"x\"}"), new String[] { "argument_not_allowed", p + "patch" });
        ObjectNode extra = crm("demo-co", "lead-42", "{\"stage\":\"review\"}");
        extra.put("secretNote", "zq-value-never-echoed");
        violations.put(extra, new String[] { "argument_not_allowed", "spec.tools.pay__crm_patch.arguments" });
        ObjectNode missing = crm("demo-co", "lead-42", "{\"stage\":\"review\"}");
        missing.remove("patch");
        violations.put(missing, new String[] { "argument_missing", p + "patch" });
        for (Map.Entry<ObjectNode, String[]> v : violations.entrySet()) {
            ObjectNode r = call(c, "pay__crm_patch", v.getKey());
            assertRefused(r, -32001, v.getValue()[0]);
            assertTrue(r.path("error").path("data").path("gate_path").asText().startsWith(v.getValue()[1]),
                    v.getKey() + " -> " + r);
            assertFalse(r.toString().contains("zq-value-never-echoed") || r.toString().contains("other-co"),
                    "a denial names the contract path, never the value: " + r);
        }
        assertEquals(2, f.effects().size(), "only the two honoured calls reached the upstream: " + f.effects());
    }

    @Test
    void bindToNeedsATrustedTaskContextAndAForgedOneIsRefusedAtInitialize() throws Exception {
        GateFixture f = gated("gate-task", null, null);
        assertRefused(call(session(f, null), "pay__crm_patch", crm("demo-co", "lead-42", "{\"stage\":\"review\"}")),
                -32001, "task_context_missing");
        Ed25519SigningKey stranger = Ed25519SigningKey.generate(new java.security.SecureRandom());
        McpHttpClient forged = new McpHttpClient(base.resolve("/t/gate-task/mcp"))
                .headers(Map.of(dev.cloakgate.gate.TaskContexts.HEADER, f.taskHeader(task("t-forged"), stranger)));
        ObjectNode init = forged.initialize("2025-06-18", Json.object());
        assertEquals("task_context_untrusted", init.path("error").path("data").path("reason").asText(), init.toString());
        assertEquals(0, f.effects().size());
    }

    @Test
    void anApprovedCallRunsOnceAndItsRetryIsTheStoredAnswer() throws Exception {
        GateFixture f = gated("gate-appr", null, t -> t.put("sanitize", true));
        McpHttpClient c = session(f, f.taskHeader(task("t-appr"), f.orchestrator));
        ObjectNode pay = args("invoice", "INV-1001");
        pay.put("amount", 300);
        pay.put("currency", "EUR");
        ObjectNode held = call(c, "pay__pay_invoice", pay);
        assertRefused(held, -32001, "approval_required");
        String fp = CallFingerprint.of(f.releaseHash(), "pay__pay_invoice", pay);
        assertEquals(fp, held.path("error").path("data").path("fingerprint").asText());
        long from = ledger(f).size();
        f.approve("pay__pay_invoice", pay, "t-appr", "op-invoice-1001");

        ObjectNode first = call(c, "pay__pay_invoice", pay);
        assertTrue(text(first).startsWith("paid INV-1001"), first.toString());
        assertFalse(first.toString().contains("payee.ledger@example-pay.com"), "the result is cloaked");
        ObjectNode again = call(c, "pay__pay_invoice", pay);
        assertEquals(first.path("result"), again.path("result"), "the retry is answered with the stored result");
        assertEquals(1, f.effects().size(), "the upstream's own record: one payment, " + f.effects());

        ObjectNode changed = pay.deepCopy();
        changed.put("amount", 301);
        assertRefused(call(c, "pay__pay_invoice", changed), -32001, "approval_required");
        assertEquals(1, f.effects().size());

        List<JsonNode> calls = StoredEntries.of(ledger(f), from, "mcp_tool_call");
        assertTrue(calls.stream().anyMatch(e -> "op-invoice-1001".equals(e.path("operation_id").asText())
                && e.path("approval").asText().startsWith("sha256:") && f.releaseHash().equals(e.path("release").asText())),
                calls.toString());
        assertTrue(StoredEntries.of(ledger(f), from, "mcp_tool_result").stream().anyMatch(
                e -> "done".equals(e.path("operation_state").asText())));
        String entries = StoredEntries.from(ledger(f), from).toString();
        assertFalse(entries.contains("INV-1001") || entries.contains(fp), "no argument value, no plain hash of one");
        Path ops = Path.of(System.getProperty("test.data.dir")).resolve("operations").resolve("gate-appr.db");
        assertFalse(new String(Files.readAllBytes(ops), StandardCharsets.ISO_8859_1).contains("payee.ledger@example-pay.com"),
                "the stored answer is the cloaked one");
    }

    @Test
    void thePolicysHoldIsReleasedByTheSameKindOfReceipt() throws Exception {
        GateFixture f = gated("gate-pol", null, t -> t.set("policy", Json.object()));
        McpHttpClient c = session(f, f.taskHeader(task("t-pol"), f.orchestrator));
        ObjectNode del = args("record", "lead-7");
        ObjectNode held = call(c, "pay__delete_record", del);
        assertRefused(held, -32001, "approval_required");
        String fp = CallFingerprint.of(f.releaseHash(), "pay__delete_record", del);
        assertEquals(fp, held.path("error").path("data").path("fingerprint").asText(), "the gate's fingerprint");
        f.approve("pay__delete_record", del, "t-pol", null);
        assertEquals("deleted lead-7", text(call(c, "pay__delete_record", del)));
        assertEquals(1, f.effects().size());
    }

    @Test
    void anUpstreamKilledMidCallLeavesTheOperationUnknownUntilReconciled() throws Exception {
        GateFixture f = gated("gate-kill", null, null);
        McpHttpClient c = session(f, f.taskHeader(task("t-kill"), f.orchestrator));
        ObjectNode hang = args("invoice", "INV-77");
        CompletableFuture<ObjectNode> pending = c.requestAsync("tools/call", params("pay__hang_pay", hang));
        long end = System.nanoTime() + WAIT.toNanos();
        while (f.effects().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        // the same operation sent again while the first is unanswered: refused, never a second effect
        assertRefused(call(c, "pay__hang_pay", hang), -32002, "operation_in_flight");
        long pid = Json.parse(f.effects().get(0)).path("pid").asLong();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        ObjectNode unknown = pending.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertRefused(unknown, -32002, "operation_unknown");
        String op = unknown.path("error").path("data").path("operationId").asText();
        assertTrue(op.startsWith("op-"), unknown.toString());

        assertRefused(call(c, "pay__hang_pay", hang), -32002, "reconcile_before_retry");
        // the operator, with the command, beside the running gateway
        String listed = command("operations", "list", "--tenant", "gate-kill", "--state", "unknown");
        assertTrue(listed.contains(op), listed);
        command("operations", "reconcile", "--tenant", "gate-kill", op, "--outcome", "done");
        ObjectNode retry = call(c, "pay__hang_pay", hang);
        assertRefused(retry, -32002, "operation_reconciled");
        assertEquals("done", retry.path("error").path("data").path("state").asText());
        assertEquals(1, f.effects().size(), "the retry never reached the upstream");
        long until = System.nanoTime() + WAIT.toNanos();
        while (StoredEntries.of(ledger(f), 0, "operation_reconciled").isEmpty() && System.nanoTime() < until) {
            Thread.sleep(200);
        }
        List<JsonNode> reconciled = StoredEntries.of(ledger(f), 0, "operation_reconciled");
        assertEquals(1, reconciled.size(), reconciled.toString());
        assertEquals(op, reconciled.get(0).path("operation_id").asText());
    }

    @Test
    void warnModeForwardsTheRefusedCallAndRecordsTheViolation() throws Exception {
        GateFixture f = gated("gate-warn", g -> g.put("mode", "warn"), null);
        McpHttpClient c = session(f, f.taskHeader(task("t-warn"), f.orchestrator));
        long from = ledger(f).size();
        assertEquals("patched lead-1234567890", text(call(c, "pay__crm_patch", crm("demo-co", "lead-1234567890",
                "{\"stage\":\"review\"}"))));
        assertEquals(1, f.effects().size());
        List<JsonNode> warned = StoredEntries.of(ledger(f), from, "mcp_tool_call").stream()
                .filter(e -> "warn".equals(e.path("action").asText())).toList();
        assertEquals("argument_length", warned.get(0).path("gate_denial").asText(), warned.toString());
    }

    @Test
    void approvalWaitReleasesAHeldCallTheMomentTheReceiptArrives() throws Exception {
        GateFixture f = gated("gate-wait", g -> g.put("approval_wait_seconds", 120), null);
        McpHttpClient c = session(f, f.taskHeader(task("t-wait"), f.orchestrator));
        ObjectNode pay = args("invoice", "INV-2002");
        pay.put("amount", 12);
        CompletableFuture<ObjectNode> held = c.requestAsync("tools/call", params("pay__pay_invoice", pay));
        Thread.sleep(1500);
        assertFalse(held.isDone(), "held while no receipt exists");
        assertEquals(0, f.effects().size());
        f.approve("pay__pay_invoice", pay, "t-wait", null);
        ObjectNode done = held.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(text(done).startsWith("paid INV-2002"), done.toString());
        assertEquals(1, f.effects().size());

        // a held call the client cancels is never sent, even when its receipt arrives after
        ObjectNode other = args("invoice", "INV-2003");
        other.put("amount", 13);
        CompletableFuture<ObjectNode> cancelled = c.requestWithId(Json.parse("\"held-2\""), "tools/call",
                params("pay__pay_invoice", other));
        Thread.sleep(1500);
        ObjectNode cancel = Json.object();
        cancel.put("requestId", "held-2");
        c.notify("notifications/cancelled", cancel);
        Thread.sleep(500);
        f.approve("pay__pay_invoice", other, "t-wait", null);
        Thread.sleep(2500); // the receipt is found within the store's poll interval (200 ms)
        assertEquals(1, f.effects().size(), "the cancelled call never reached the upstream: " + f.effects());
        cancelled.cancel(true);
    }

    // ---- helpers ----

    /** A tenant with the standard contract and release, certified, written and loaded. */
    private GateFixture gated(String tenant, java.util.function.Consumer<ObjectNode> gate,
            java.util.function.Consumer<ObjectNode> extra) throws Exception {
        GateFixture f = new GateFixture(tenant);
        f.release(CONTRACT, RELEASED, null).certify();
        f.writeTenant(gate, extra);
        awaitLoaded(f, 1);
        return f;
    }

    /** Waits until the tenant's file version {@code n} (counting from its first) is serving. */
    private void awaitLoaded(GateFixture f, int n) throws Exception {
        byte[] file = Files.readAllBytes(Path.of(System.getProperty("test.tenants.dir")).resolve(f.tenant + ".json"));
        String digest = sha256(file);
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            var s = gateway.tenants().status(f.tenant).orElse(null);
            if (s != null && digest.equals(s.digest()) && s.acceptingSessions()) {
                return;
            }
            if (s != null && s.lastRejected() != null && digest.equals(s.lastRejected().digest())) {
                throw new AssertionError("tenant " + f.tenant + " refused: " + s.lastRejected());
            }
            Thread.sleep(50);
        }
        throw new AssertionError("tenant " + f.tenant + " never loaded: " + gateway.tenants().status(f.tenant));
    }

    private McpHttpClient session(GateFixture f, String taskHeader) {
        McpHttpClient c = new McpHttpClient(base.resolve("/t/" + f.tenant + "/mcp"));
        if (taskHeader != null) {
            c.headers(Map.of(dev.cloakgate.gate.TaskContexts.HEADER, taskHeader));
        }
        ObjectNode init = c.initialize("2025-06-18", Json.object());
        assertNotNull(init.get("result"), init.toString());
        return c;
    }

    private dev.cloakgate.ledger.Ledger ledger(GateFixture f) {
        return gateway.ledger(f.tenant);
    }

    private static ObjectNode call(McpHttpClient c, String tool, ObjectNode arguments) {
        return c.request("tools/call", params(tool, arguments));
    }

    private static ObjectNode params(String tool, ObjectNode arguments) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", arguments);
        return p;
    }

    private static ObjectNode args(String key, String value) {
        ObjectNode a = Json.object();
        a.put(key, value);
        return a;
    }

    private static ObjectNode task(String taskId) {
        ObjectNode t = Json.object();
        t.put("taskId", taskId);
        t.put("tenant", "demo-co");
        t.put("record", "lead-42");
        return t;
    }

    private static ObjectNode crm(String tenant, Object record, String patch) {
        ObjectNode a = Json.object();
        a.put("tenant", tenant);
        if (record instanceof String s) {
            a.put("record", s);
        } else {
            a.put("record", (Integer) record);
        }
        a.set("patch", Json.parse(patch));
        return a;
    }

    private static String text(ObjectNode response) {
        return response.path("result").path("content").path(0).path("text").asText("<" + response + ">");
    }

    private static void assertRefused(ObjectNode response, int code, String reason) {
        assertEquals(code, response.path("error").path("code").asInt(), response.toString());
        assertEquals(reason, response.path("error").path("data").path("reason").asText(), response.toString());
    }

    private static String command(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String before = System.getProperty("cloakgate.data-dir");
        System.setProperty("cloakgate.data-dir", System.getProperty("test.data.dir"));
        try {
            int exit = new dev.cloakgate.server.OperationsCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
            assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            if (before == null) {
                System.clearProperty("cloakgate.data-dir");
            } else {
                System.setProperty("cloakgate.data-dir", before);
            }
        }
    }

    private static String sha256(byte[] b) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
    }
}
