package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static dev.cloakgate.acceptance.TwoUpstreamsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Upstreams that speak only the HTTP+SSE transport of MCP 2024-11-05 ({@code "transport": "sse"}), against the
 * real {@code server-everything} in its {@code sse} mode: tools listed and called, progress relayed, the server
 * going away and coming back; and against a small recording server: the tenant's headers on the GET and on every
 * POST, and an endpoint on another origin refused before anything is posted there.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class LegacySseTest {

    @TestHTTPResource("/t/legacy/mcp")
    URI legacy;

    @TestHTTPResource("/t/legacy-probe/mcp")
    URI probe;

    @TestHTTPResource("/t/legacy-hostile/mcp")
    URI hostile;

    @Test
    void toolsAreListedAndCalledWithProgress() {
        try (McpHttpClient c = new McpHttpClient(legacy)) {
            ObjectNode init = c.initialize("2025-11-25", Json.object());
            assertTrue(init.has("result"), init.toString());
            JsonNode tools = c.request("tools/list", Json.object()).path("result").path("tools");
            List<String> names = tools.findValuesAsText("name");
            assertTrue(names.contains("ev__echo") && names.contains("ev__trigger-long-running-operation"), names.toString());

            assertEquals("Echo: hello over the legacy transport",
                    text(c.request("tools/call", call("ev__echo", "{\"message\":\"hello over the legacy transport\"}"))));

            ObjectNode p = call("ev__trigger-long-running-operation", "{\"duration\":1,\"steps\":3}");
            p.putObject("_meta").put("progressToken", "legacy-progress-1");
            ObjectNode done = c.request("tools/call", p);
            assertTrue(text(done).startsWith("Long running operation completed"), done.toString());
            List<ObjectNode> progress = c.notifications().stream()
                    .filter(n -> n.path("method").asText().equals("notifications/progress")).toList();
            assertEquals(3, progress.size(), progress.toString());
            for (int i = 0; i < 3; i++) {
                assertEquals("legacy-progress-1", progress.get(i).path("params").path("progressToken").asText());
                assertEquals(i + 1, progress.get(i).path("params").path("progress").asInt());
            }
        }
    }

    @Test
    void theTenantsHeadersGoOnTheStreamAndOnEveryPost() throws Exception {
        try (McpHttpClient c = new McpHttpClient(probe)) {
            assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
            assertEquals("legacy:with headers", text(c.request("tools/call", call("lg__echo", "{\"text\":\"with headers\"}"))));
        }
        List<JsonNode> seen = Files.readAllLines(Path.of(System.getProperty("test.legacy-probe.record"))).stream()
                .map(Json::parse).toList();
        long gets = seen.stream().filter(e -> e.path("method").asText().equals("GET")).count();
        long posts = seen.stream().filter(e -> e.path("method").asText().equals("POST")).count();
        // initialize, notifications/initialized and the call, at least
        assertTrue(gets >= 1 && posts >= 3, seen.toString());
        assertTrue(seen.stream().allMatch(e -> e.path("key").asText().equals("legacy-key-legacy-probe")), seen.toString());
    }

    @Test
    void anEndpointOnAnotherOriginIsRefusedAndNothingIsPostedThere() throws Exception {
        try (McpHttpClient c = new McpHttpClient(hostile)) {
            ObjectNode init = c.initialize("2025-11-25", Json.object());
            JsonNode error = init.path("error");
            assertEquals("upstream_unavailable", error.path("data").path("reason").asText(), init.toString());
            assertTrue(error.path("message").asText().contains("not on the origin of its configured URL"), init.toString());
        }
        String record = Files.readString(Path.of(System.getProperty("test.legacy-hostile.record")));
        assertTrue(record.contains("\"GET\""), record);
        assertTrue(!record.contains("CAUGHT") && !record.contains("\"POST\""), "a message was posted: " + record);
    }

    @Test
    void theServerGoesAwayAndComesBack() throws Exception {
        int port = Integer.parseInt(System.getProperty("test.legacy.port"));
        try (McpHttpClient c = new McpHttpClient(legacy)) {
            assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
            assertEquals("Echo: before", text(c.request("tools/call", call("ev__echo", "{\"message\":\"before\"}"))));

            ProcessHandle server = ProcessHandle.of(Long.parseLong(System.getProperty("test.legacy.pid"))).orElseThrow();
            server.destroy();
            server.onExit().get(10, TimeUnit.SECONDS);
            ObjectNode down = c.request("tools/call", call("ev__echo", "{\"message\":\"while down\"}"));
            assertEquals(-32603, down.path("error").path("code").asInt(), down.toString());
            assertTrue(down.path("error").path("data").path("reason").asText().startsWith("upstream_"), down.toString());
            assertEquals("ev", down.path("error").path("data").path("upstream").asText(), down.toString());

            NodeFixtures.HttpServer again = NodeFixtures.startEverythingSse(port);
            System.setProperty("test.legacy.pid", String.valueOf(again.process().pid()));
            // re-established on next use (a new stream and handshake), once the backoff allows
            String answer = "";
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < end && !answer.equals("Echo: after")) {
                answer = text(c.request("tools/call", call("ev__echo", "{\"message\":\"after\"}")));
                if (!answer.equals("Echo: after")) {
                    Thread.sleep(250);
                }
            }
            assertEquals("Echo: after", answer);
        }
    }
}
