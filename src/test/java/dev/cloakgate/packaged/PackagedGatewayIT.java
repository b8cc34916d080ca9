package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;

/** The packaged jar as operators run it: --check, refusal to start on a bad tenant file, a real session. */
class PackagedGatewayIT {

    /** The agent token of team-a's one principal (the file keeps its SHA-256). */
    private static final String AGENT_TOKEN = "team-a-agent-token-4c8e1f6a9d2b7e3c";
    /** What the tenants below that are not about credentials say about them. */
    private static final String OPEN = ",\"auth\":{\"mode\":\"none\"}";

    private static void goodTenant(Path dir) throws Exception {
        Files.writeString(dir.resolve("team-a.json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(NodeFixtures.PROBE.toString()))
                + ",\"stdio\",\"--name\",\"alpha\"]}},\"auth\":{\"principals\":{\"team-a-agent\":{\"roles\":[\"agent\"],"
                + "\"tokens_sha256\":[\"" + dev.cloakgate.testing.Upstreams.sha256(AGENT_TOKEN) + "\"]}}}}");
    }

    @Test
    void checkPassesOnValidTenantsWithoutServing(@TempDir Path dir) throws Exception {
        goodTenant(dir);
        GatewayProcess.Result r = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir), "--check");
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("team-a"), r.output());
        assertFalse(r.output().contains("Listening on"), "--check must not serve: " + r.output());
    }

    @Test
    void withoutASigningKeyTheCheckFailsAndTheGatewayDoesNotStart(@TempDir Path dir) throws Exception {
        goodTenant(dir);
        List<String> noKey = List.of("-Dcloakgate.tenants-dir=" + dir, "-Dcloakgate.ledger.dev-key=false");
        GatewayProcess.Result check = GatewayProcess.run(noKey, "--check");
        assertEquals(1, check.exit(), check.output());
        assertTrue(check.output().contains("cloakgate.ledger.signing-key-file") && check.output().contains("CLOAKGATE_LEDGER_SIGNING_KEY"),
                check.output());
        try (GatewayProcess gw = GatewayProcess.start(noKey)) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(60)));
            assertTrue(gw.log().contains("no ledger signing key"), gw.log());
        }
        Path key = dir.resolve("ledger.key");
        Files.writeString(key, "ab".repeat(32));
        GatewayProcess.Result ok = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir,
                "-Dcloakgate.ledger.signing-key-file=" + key), "--check");
        assertEquals(0, ok.exit(), ok.output());
        String id = dev.cloakgate.crypto.SignerKeys.keyId(dev.cloakgate.crypto.Ed25519SigningKey.fromFile(key).publicKey());
        assertTrue(ok.output().contains("ledger signing key " + id), ok.output());
    }

    @Test
    void checkFailsNamingFileAndKey(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("team-b.json"), "{\"upstreams\":{\"fs\":{\"command\":\"x\",\"comand\":\"y\"}}}");
        checkFails(dir, "team-b.json", "$.upstreams.fs.comand");
    }

    /** {@code --check} exits 1 naming the file and the key. */
    private static void checkFails(Path dir, String file, String key) throws Exception {
        GatewayProcess.Result r = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir), "--check");
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains(file) && r.output().contains(key), r.output());
    }

    @Test
    void aTenantThatSaysNothingOfCredentialsIsRefusedAndOneOpenToAllIsAWarning(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("team-f.json"), "{\"upstreams\":{\"fs\":{\"command\":\"x\"}}}");
        checkFails(dir, "team-f.json", "$.auth");
        try (GatewayProcess gw = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + dir))) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(60)));
            assertTrue(gw.log().contains("team-f.json") && gw.log().contains("$.auth"), gw.log());
        }
        Files.writeString(dir.resolve("team-f.json"), "{\"upstreams\":{\"fs\":{\"command\":\"x\"}}" + OPEN + "}");
        GatewayProcess.Result open = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir), "--check");
        assertEquals(0, open.exit(), open.output());
        assertTrue(open.output().contains("warning: tenant team-f asks agents for no credential"), open.output());
        Files.writeString(dir.resolve("team-f.json"), "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"auth\":{\"mode\":\"none\","
                + "\"principals\":{\"audit\":{\"roles\":[\"auditor\"],\"token_file\":\"" + dir.resolve("missing-secret") + "\"}}}}");
        checkFails(dir, "team-f.json", "$.auth.principals.audit.token_file");
    }

    @Test
    void pinsCommandRunsWithoutServingAndAcceptsOnlyThePendingHash(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        dev.cloakgate.policy.PinStore pins = new dev.cloakgate.policy.FilePinStore(data, "team-a");
        pins.check("fs", "read", "a".repeat(64));
        pins.check("fs", "read", "b".repeat(64)); // the definition changed: quarantined, b pending
        List<String> props = List.of("-Dcloakgate.data-dir=" + data);
        GatewayProcess.Result list = GatewayProcess.run(props, "pins", "list", "--tenant", "team-a");
        assertEquals(0, list.exit(), list.output());
        assertTrue(list.output().contains("fs/read " + "a".repeat(64) + " QUARANTINED pending " + "b".repeat(64)), list.output());
        assertFalse(list.output().contains("Listening on"), "pins must not serve: " + list.output());
        assertEquals(1, GatewayProcess.run(props, "pins", "accept", "--tenant", "team-a", "--tool", "fs/read",
                "--sha256", "c".repeat(64)).exit());
        GatewayProcess.Result ok = GatewayProcess.run(props, "pins", "accept", "--tenant", "team-a", "--tool", "fs/read",
                "--sha256", "b".repeat(64));
        assertEquals(0, ok.exit(), ok.output());
        assertEquals(dev.cloakgate.policy.PinStore.Check.SAME, pins.check("fs", "read", "b".repeat(64)));
        assertEquals(2, GatewayProcess.run(props, "pins", "accept", "--tenant", "team-a").exit(), "usage");
        assertEquals(2, GatewayProcess.run(props, "pins", "list").exit(), "usage: no tenant");
    }

    @Test
    void gatewayRefusesToStartOnAnInvalidTenantFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("team-c.json"), "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"namespace\":\"flat\"}");
        try (GatewayProcess gw = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + dir))) {
            int exit = gw.awaitExit(Duration.ofSeconds(60));
            assertNotEquals(0, exit);
            assertTrue(gw.log().contains("team-c.json") && gw.log().contains("$.namespace"), gw.log());
        }
    }

    @Test
    void brokenDetectionRefusesToStartAndFailsTheCheck(@TempDir Path dir) throws Exception {
        // a model file that is not a model: loading it must fail loudly, never cloak nothing quietly
        Path corrupt = dir.resolve("corrupt-person.bin");
        Files.write(corrupt, new byte[] { 'P', 'K', 3, 4, 0, 0, 0, 0, 42, 42, 42 });
        Files.writeString(dir.resolve("team-d.json"), "{\"upstreams\":{\"fs\":{\"command\":\"x\"}}" + OPEN + ","
                + "\"detection\":{\"person_model\":" + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        corrupt.toString())) + "}}");
        GatewayProcess.Result check = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir), "--check");
        assertEquals(1, check.exit(), check.output());
        assertTrue(check.output().contains("team-d.json") && check.output().contains("$.detection.person_model"),
                check.output());
        try (GatewayProcess gw = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + dir))) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(60)));
            assertTrue(gw.log().contains("team-d.json") && gw.log().contains("$.detection.person_model"), gw.log());
        }
    }

    @Test
    void aModelThatLoadsButDetectsNothingFailsTheSelfCheck(@TempDir Path dir) throws Exception {
        // a real OpenNLP name-finder model trained on nothing useful: it loads, and finds no one
        Path useless = dir.resolve("useless-person.bin");
        dev.cloakgate.testing.UselessModel.write(useless);
        Files.writeString(dir.resolve("team-e.json"), "{\"upstreams\":{\"fs\":{\"command\":\"x\"}}" + OPEN + ","
                + "\"detection\":{\"person_model\":" + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        useless.toString())) + "}}");
        GatewayProcess.Result check = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir), "--check");
        assertEquals(1, check.exit(), check.output());
        assertTrue(check.output().contains("self-check failed") && check.output().contains("PERSON"), check.output());
    }

    @Test
    void servesASessionAndStopsCleanlyWithItsChildren(@TempDir Path dir) throws Exception {
        goodTenant(dir);
        try (GatewayProcess gw = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + dir))) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(60)), gw.log());
            try (McpHttpClient anonymous = new McpHttpClient(gw.url("/t/team-a/mcp"))) {
                assertEquals(401, anonymous.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}")
                        .status(), "the packaged gateway asks for the credential too");
            }
            try (McpHttpClient c = new McpHttpClient(gw.url("/t/team-a/mcp"), AGENT_TOKEN)) {
                assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
                var r = c.request("tools/call", Json.obj("{\"name\":\"alpha__echo\",\"arguments\":{\"text\":\"packaged\"}}"));
                assertEquals("alpha:packaged", r.path("result").path("content").path(0).path("text").asText(), r.toString());
                List<ProcessHandle> children = gw.process().descendants().toList();
                assertFalse(children.isEmpty());
                gw.process().destroy();
                int exit = gw.awaitExit(Duration.ofSeconds(30));
                assertTrue(exit == 0 || exit == 143, "SIGTERM is a clean stop, got " + exit + "\n" + gw.log());
                for (ProcessHandle child : children) {
                    child.onExit().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join();
                    assertFalse(child.isAlive(), "stdio child outlived the gateway");
                }
            }
        }
    }
}
