package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** Each edge of the transport gets the specified status and a JSON-RPC error body, never a stack trace. */
@QuarkusTest
@WithTestResource(Upstreams.class)
class ProtocolEdgesTest {
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    @TestHTTPResource("/t/duo/mcp")
    URI duo;

    @TestHTTPResource("/t/nosuch/mcp")
    URI nosuch;

    @Test
    void unknownMethodIsRefusedNotGuessed() {
        try (McpHttpClient c = session()) {
            McpHttpClient.Raw r = c.post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/explode\",\"params\":{}}");
            assertEquals(200, r.status());
            assertEquals(-32601, error(r).path("code").asInt());
            assertEquals(9, r.json().path("id").asInt());
        }
    }

    @Test
    void batchesAreRefused() {
        try (McpHttpClient c = session()) {
            McpHttpClient.Raw r = c.post("[" + PING + "," + PING + "]");
            assertEquals(400, r.status());
            assertEquals(-32600, error(r).path("code").asInt());
            assertEquals("batch", error(r).path("data").path("reason").asText());
        }
    }

    @Test
    void sessionRules() {
        try (McpHttpClient c = session()) {
            McpHttpClient.Raw missing = c.send(HttpRequest.newBuilder(duo).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(400, missing.status());
            assertEquals("missing_session", error(missing).path("data").path("reason").asText());

            McpHttpClient.Raw unknown = c.send(HttpRequest.newBuilder(duo).header("Content-Type", "application/json")
                    .header("Mcp-Session-Id", "0123456789abcdef0123456789abcdef")
                    .POST(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(404, unknown.status());
            assertEquals("unknown_session", error(unknown).path("data").path("reason").asText());

            McpHttpClient.Raw reinit = c.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}");
            assertEquals(400, reinit.status());

            McpHttpClient.Raw badVersion = c.send(c.builder().header("Content-Type", "application/json")
                    .setHeader("MCP-Protocol-Version", "1999-01-01").POST(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(400, badVersion.status());
            assertEquals("unsupported_protocol_version", error(badVersion).path("data").path("reason").asText());

            assertEquals(200, c.post(PING).status());
            assertEquals(200, c.delete());
            assertEquals(404, c.post(PING).status(), "a deleted session is gone");
            assertEquals(404, c.delete());
        }
    }

    @Test
    void notificationsAndResponsesGet202() {
        try (McpHttpClient c = session()) {
            assertEquals(202, c.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}").status());
            assertEquals(202, c.post("{\"jsonrpc\":\"2.0\",\"id\":12345,\"result\":{}}").status());
        }
    }

    @Test
    void badOriginIsForbidden() {
        try (McpHttpClient c = session()) {
            McpHttpClient.Raw r = c.send(c.builder().header("Content-Type", "application/json")
                    .header("Origin", "http://evil.example.com").POST(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(403, r.status());
            assertEquals("origin_not_allowed", error(r).path("data").path("reason").asText());
            McpHttpClient.Raw local = c.send(c.builder().header("Content-Type", "application/json")
                    .header("Origin", "http://localhost:6274").POST(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(200, local.status());
        }
    }

    @Test
    void oversizedBodyAndDeepNestingGet413WithAJsonRpcBody() {
        try (McpHttpClient c = session()) {
            String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(70_000) + "\"}}";
            McpHttpClient.Raw r = c.post(big);
            assertEquals(413, r.status());
            assertEquals("too_large", error(r).path("data").path("reason").asText());
            assertTrue(r.contentType().startsWith("application/json"));

            String deep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}}";
            McpHttpClient.Raw d = c.post(deep);
            assertEquals(413, d.status());
            assertEquals("too_deep", error(d).path("data").path("reason").asText());
        }
    }

    @Test
    void unreadableMessagesAre400WithAParseError() {
        try (McpHttpClient c = session()) {
            for (String bad : new String[] { "{\"jsonrpc\":\"2.0\",", "not json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\\ud800\"}}" }) {
                McpHttpClient.Raw r = c.post(bad);
                assertEquals(400, r.status(), bad);
                assertEquals(-32700, error(r).path("code").asInt(), bad);
                assertFalse(r.body().contains("Exception") || r.body().contains("at dev."), r.body());
            }
            McpHttpClient.Raw variant = c.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"Method\":\"ping\"}");
            assertEquals(400, variant.status());
            assertEquals("noncanonical", error(variant).path("data").path("reason").asText());
        }
    }

    @Test
    void wrongContentTypeAcceptAndTenant() {
        try (McpHttpClient c = session()) {
            McpHttpClient.Raw text = c.send(c.builder().header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(415, text.status());
            McpHttpClient.Raw html = c.send(c.builder().header("Content-Type", "application/json").header("Accept", "text/html")
                    .POST(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(406, html.status());
            McpHttpClient.Raw put = c.send(c.builder().PUT(HttpRequest.BodyPublishers.ofString(PING)).build());
            assertEquals(405, put.status());
        }
        try (McpHttpClient other = new McpHttpClient(nosuch)) {
            McpHttpClient.Raw r = other.post(PING);
            // issue 16: credential first: an unknown tenant answers what a missing credential gets
            assertEquals(401, r.status());
            assertEquals("missing_credential", error(r).path("data").path("reason").asText());
        }
    }

    @Test
    void getStreamNeedsASessionAndEventStreamAccept() {
        try (McpHttpClient c = session()) {
            assertEquals(400, c.send(HttpRequest.newBuilder(duo).header("Accept", "text/event-stream").GET().build()).status());
            assertEquals(406, c.send(c.builder().header("Accept", "application/json").GET().build()).status());
        }
    }

    @Test
    void idleStreamsGetKeepAliveComments() throws Exception {
        try (McpHttpClient c = session()) {
            var http = java.net.http.HttpClient.newHttpClient();
            var resp = http.send(c.builder().header("Accept", "text/event-stream").GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, resp.statusCode());
            assertTrue(resp.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
            var lines = new java.util.concurrent.LinkedBlockingQueue<String>();
            Thread reader = new Thread(() -> {
                try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(resp.body()))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (java.io.IOException ignored) {
                    // closed by the test
                }
            });
            reader.setDaemon(true);
            reader.start();
            long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
            boolean seen = false;
            while (!seen && System.nanoTime() < end) {
                String l = lines.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                seen = l != null && l.startsWith(": keep-alive");
            }
            resp.body().close();
            assertTrue(seen, "a keep-alive comment within 5 s on an idle stream (interval 1 s in tests)");
        }
    }

    private McpHttpClient session() {
        McpHttpClient c = new McpHttpClient(duo);
        c.initialize("2025-11-25", Json.object());
        return c;
    }

    private static JsonNode error(McpHttpClient.Raw r) {
        JsonNode e = r.json().path("error");
        assertTrue(e.isObject(), "JSON-RPC error body expected: " + r.body());
        return e;
    }
}
