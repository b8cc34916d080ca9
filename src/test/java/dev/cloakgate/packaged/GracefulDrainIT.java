package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;

/**
 * SIGTERM to the packaged gateway while agents' calls are running: readiness goes down first, new sessions are
 * refused with {@code shutting_down}, every call that finishes within the drain timeout gets its answer, a call
 * that never finishes is answered {@code shutting_down} at the deadline, the process exits soon after, its stdio
 * children are gone, the ledger's final checkpoint covers every entry, and the next start continues the chain.
 */
class GracefulDrainIT {
    private static final int DRAIN_SECONDS = 20;
    /** What the exit may take beyond the drain timeout: answers written, sessions and ledgers closed, the JVM gone. */
    private static final int EXIT_BOUND_SECONDS = 30;

    /** The tenant log's two verifier keys, derived from the key file as the gateway derives them. */
    private static List<String> trust(Path keyFile, Path data) throws Exception {
        return dev.cloakgate.ledger.BundleKit.vkeys(data, "team-d", Ed25519SigningKey.fromFile(keyFile));
    }

    private static List<String> exportAndVerify(List<String> props, Path out, List<String> trustKeys) throws Exception {
        GatewayProcess.Result ex = GatewayProcess.run(props, "ledger", "export", "--tenant", "team-d", "--out", out.toString());
        assertEquals(0, ex.exit(), ex.output());
        GatewayProcess.Result v = GatewayProcess.run(List.of(), "ledger", "verify", out.toString(), "--tenant", "team-d",
                "--trust-key", trustKeys.get(0), "--trust-key", trustKeys.get(1));
        assertEquals(0, v.exit(), v.output());
        assertTrue(Json.parse(v.output().substring(v.output().indexOf('{'))).path("valid").asBoolean(), v.output());
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(out.toFile())) {
            return List.of(new String(zip.getInputStream(zip.getEntry("entries.jsonl")).readAllBytes(),
                    StandardCharsets.UTF_8).split("\n"));
        }
    }

    private static ObjectNode slowCall(int i) {
        return Json.obj("{\"name\":\"alpha__slow\",\"arguments\":{\"ms\":3000},\"_meta\":{\"progressToken\":\"drain-" + i + "\"}}");
    }

    private static int ready(GatewayProcess gw) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(gw.managementUrl("/q/health/ready")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (Exception e) {
            return -1; // no longer listening
        }
    }

    @Test
    void sigtermUnderLoadAnswersEveryCallThatFinishesInTimeAndTheLedgerContinues(@TempDir Path dir) throws Exception {
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        Path data = dir.resolve("data");
        Files.writeString(tenants.resolve("team-d.json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                + Json.write(TextNode.valueOf(NodeFixtures.PROBE.toString())) + ",\"stdio\",\"--name\",\"alpha\"]}},"
                + "\"sanitize\":false,\"policy\":{},\"auth\":{\"mode\":\"none\"}}");
        Path key = dir.resolve("ledger.key");
        Files.writeString(key, "5a".repeat(32) + "\n");
        List<String> props = List.of("-Dcloakgate.tenants-dir=" + tenants, "-Dcloakgate.data-dir=" + data,
                "-Dcloakgate.ledger.signing-key-file=" + key, "-Dcloakgate.shutdown.drain-timeout=" + DRAIN_SECONDS + "s");

        List<McpHttpClient> agents = new ArrayList<>();
        List<String> first;
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            // four agents, each with a call that takes three seconds, and one whose call never ends
            List<CompletableFuture<ObjectNode>> slow = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                McpHttpClient c = new McpHttpClient(gw.url("/t/team-d/mcp"));
                agents.add(c);
                assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
                slow.add(c.requestAsync("tools/call", slowCall(i)));
            }
            McpHttpClient hanging = new McpHttpClient(gw.url("/t/team-d/mcp"));
            agents.add(hanging);
            assertTrue(hanging.initialize("2025-11-25", Json.object()).has("result"));
            CompletableFuture<ObjectNode> hang = hanging.requestAsync("tools/call", Json.obj("{\"name\":\"alpha__hang\",\"arguments\":{}}"));
            // every slow call is running upstream (it reports progress) before the signal
            for (int i = 0; i < 4; i++) {
                agents.get(i).awaitNotification(n -> n.path("method").asText().equals("notifications/progress"),
                        Duration.ofSeconds(60));
            }
            List<ProcessHandle> children = gw.process().descendants().toList();
            assertFalse(children.isEmpty(), "the stdio upstreams run as children of the gateway");

            long signalled = System.nanoTime();
            gw.process().destroy(); // SIGTERM

            // readiness goes down first...
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int status = ready(gw);
            while (status == 200 && System.nanoTime() < until) {
                Thread.sleep(20);
                status = ready(gw);
            }
            assertEquals(503, status, "readiness down while draining\n" + gw.log());
            // ...and a new session is refused with a stable code, while the drain runs
            McpHttpClient late = new McpHttpClient(gw.url("/t/team-d/mcp"));
            McpHttpClient.Raw refused = late.post(Json.write(Json.obj("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                    + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"late\","
                    + "\"version\":\"1\"}}}")));
            assertEquals(503, refused.status(), refused.body());
            assertEquals("shutting_down", refused.json().path("error").path("data").path("reason").asText(), refused.body());

            // every call that finished within the drain timeout got its answer
            for (int i = 0; i < 4; i++) {
                ObjectNode answer = slow.get(i).get(60, TimeUnit.SECONDS);
                assertTrue(answer != null && answer.has("result") && !answer.path("result").path("isError").asBoolean(),
                        "slow call " + i + " answered: " + answer + "\n" + gw.log());
            }
            // the call that never finishes is answered at the deadline, not dropped
            ObjectNode cut = hang.get(DRAIN_SECONDS + 60L, TimeUnit.SECONDS);
            assertEquals("shutting_down", cut.path("error").path("data").path("reason").asText(), String.valueOf(cut));

            gw.awaitExit(Duration.ofSeconds(DRAIN_SECONDS + EXIT_BOUND_SECONDS));
            long took = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - signalled);
            assertTrue(took <= DRAIN_SECONDS + EXIT_BOUND_SECONDS, "exited " + took + " s after SIGTERM");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (children.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(children.stream().noneMatch(ProcessHandle::isAlive), "stdio children stopped");
            String log = gw.log();
            assertTrue(log.contains("shutting down: not ready, new sessions refused"), log);
            assertTrue(log.contains("1 call(s) unanswered after " + DRAIN_SECONDS + " s were answered shutting_down"), log);
        } finally {
            agents.forEach(McpHttpClient::close);
        }

        // the final checkpoint, signed at shutdown, covers every entry
        try (LedgerStore store = LedgerStore.openReadOnly(data, "team-d")) {
            assertTrue(store.size() > 0);
            assertEquals(store.size(), store.latestCheckpoint().size(), "a checkpoint of the whole ledger at shutdown");
        }
        first = exportAndVerify(props, dir.resolve("after-drain.zip"), trust(key, data));
        long decided = first.stream().map(Json::parse).filter(e -> e.path("kind").asText().equals("decision")
                && e.path("tool").asText().equals("alpha__slow") && e.path("stage").asText().equals("response")).count();
        assertEquals(4, decided, "each slow call's answer was judged and recorded");

        // the next start continues the same chain
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            try (McpHttpClient c = new McpHttpClient(gw.url("/t/team-d/mcp"))) {
                c.initialize("2025-11-25", Json.object());
                JsonNode r = c.request("tools/call", Json.obj("{\"name\":\"alpha__echo\",\"arguments\":{\"text\":\"after\"}}"));
                assertEquals("alpha:after", r.path("result").path("content").path(0).path("text").asText(), r.toString());
            }
            gw.process().destroy();
            gw.awaitExit(Duration.ofSeconds(DRAIN_SECONDS + EXIT_BOUND_SECONDS));
        }
        List<String> second = exportAndVerify(props, dir.resolve("after-restart.zip"), trust(key, data));
        assertTrue(second.size() > first.size(), second.size() + " vs " + first.size());
        assertEquals(first, second.subList(0, first.size()), "the restarted gateway continued the same chain");
    }
}
