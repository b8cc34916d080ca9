package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.RawHttp;
import dev.cloakgate.testing.TransportLimitsProfile;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 9, item 6: clients that send slowly or open too many connections. Over real sockets, against the running
 * gateway with a 3 s header and body deadline, 12 connections per address and 40 overall (the test profile).
 * Deadlines are asserted generously (a connection must end within 30 s), never to the millisecond.
 */
@QuarkusTest
@TestProfile(TransportLimitsProfile.class)
class SlowClientTest {
    private static final long GENEROUS_MS = 30_000;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TestHTTPResource("/t/big-stdio/mcp")
    URI mcp;

    @TestHTTPResource(value = "/health/ready", management = true)
    URI ready;

    @Test
    void headersSentAByteAtATimeAreCutOff() throws Exception {
        try (RawHttp c = RawHttp.connect(mcp, "127.0.0.11")) {
            c.send("POST " + mcp.getRawPath() + " HTTP/1.1\r\nHost: localhost\r\n");
            CompletableFuture<RawHttp.Received> answer = CompletableFuture.supplyAsync(() -> read(c));
            dribble(c, "X-Slow: " + "a".repeat(100), answer);
            RawHttp.Received r = answer.get(GENEROUS_MS + 5000, TimeUnit.MILLISECONDS);
            assertTrue(r.closed(), "the gateway kept a connection whose headers never completed: " + r.text());
            if (r.bytes() > 0) {
                assertTrue(r.status().startsWith("HTTP/1.1 408"), r.text());
                assertEquals("header_timeout", reason(r.body()), r.text());
            }
        }
    }

    @Test
    void aBodySentAByteAtATimeGets408() throws Exception {
        try (RawHttp c = RawHttp.connect(mcp, "127.0.0.12")) {
            c.send(c.postHead(100_000, null));
            CompletableFuture<RawHttp.Received> answer = CompletableFuture.supplyAsync(() -> read(c));
            dribble(c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"padding\":\"" + "p".repeat(100), answer);
            RawHttp.Received r = answer.get(GENEROUS_MS + 5000, TimeUnit.MILLISECONDS);
            assertTrue(r.closed(), "the gateway kept a connection whose body never completed: " + r.text());
            assertTrue(r.status().startsWith("HTTP/1.1 408"), r.text());
            JsonNode body = Json.parse(r.body());
            assertEquals("body_timeout", body.path("error").path("data").path("reason").asText(), r.text());
            assertEquals(-32600, body.path("error").path("code").asInt());
        }
    }

    @Test
    void oneAddressOverItsCapGets503WhileOthersAreServed() throws Exception {
        List<RawHttp> held = new ArrayList<>();
        try (McpHttpClient owner = new McpHttpClient(mcp)) {
            owner.initialize("2025-11-25", Json.object());
            // the address's whole allowance, each holding a call that never ends
            for (int i = 0; i < TransportLimitsProfile.PER_ADDRESS; i++) {
                RawHttp c = RawHttp.connect(mcp, "127.0.0.2");
                held.add(c);
                c.post(hangCall(100 + i), owner.sessionId());
            }
            for (RawHttp c : held) {
                String head = c.readHead(GENEROUS_MS);
                assertTrue(head.startsWith("HTTP/1.1 200"), "a held call is streamed: " + head);
            }
            try (RawHttp extra = RawHttp.connect(mcp, "127.0.0.2")) {
                RawHttp.Received r = extra.readUntilClosed(GENEROUS_MS);
                assertTrue(r.closed(), r.text());
                assertTrue(r.status().startsWith("HTTP/1.1 503"), r.text());
                assertEquals("too_many_connections_per_address", reason(r.body()), r.text());
            }
            // another address is served all along: a new MCP session, and the health check
            try (McpHttpClient other = new McpHttpClient(mcp)) {
                JsonNode init = other.initialize("2025-11-25", Json.object());
                assertTrue(init.has("result"), init.toString());
            }
            assertEquals(200, status(ready));
        } finally {
            held.forEach(RawHttp::close);
        }
    }

    @Test
    void theOverallCapGets503() throws Exception {
        List<RawHttp> opened = new ArrayList<>();
        try (McpHttpClient owner = new McpHttpClient(mcp)) {
            owner.initialize("2025-11-25", Json.object());
            int perAddress = TransportLimitsProfile.PER_ADDRESS - 1;
            for (int i = 0; i < TransportLimitsProfile.MAX_CONNECTIONS + 2; i++) {
                RawHttp c = RawHttp.connect(mcp, "127.0.0." + (40 + i / perAddress));
                opened.add(c);
                try {
                    c.post(hangCall(200 + i), owner.sessionId());
                } catch (IOException refusedAlready) {
                    // a refused connection may be closed before the request is written
                }
            }
            int admitted = 0;
            int full = 0;
            for (RawHttp c : opened) {
                String head = c.readHead(GENEROUS_MS);
                if (head.startsWith("HTTP/1.1 200")) {
                    admitted++;
                } else {
                    assertTrue(head.startsWith("HTTP/1.1 503"), "neither held nor refused: " + head);
                    RawHttp.Received rest = c.readUntilClosed(GENEROUS_MS);
                    assertEquals("too_many_connections", reason(rest.text()), rest.text());
                    full++;
                }
            }
            assertTrue(full >= 2, "connections beyond max-connections are refused (" + full + " refused)");
            assertTrue(admitted < TransportLimitsProfile.MAX_CONNECTIONS, admitted + " admitted");
            // issue 10: the probes are on the management port, which agents' connections cannot fill
            assertEquals(200, status(ready), "readiness answers while the agents' port is full");
        } finally {
            opened.forEach(RawHttp::close);
        }
        // once they are gone, new clients are served again
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GENEROUS_MS);
        while (true) {
            try (McpHttpClient c = new McpHttpClient(mcp)) {
                JsonNode init = c.initialize("2025-11-25", Json.object());
                assertTrue(init.has("result"), init.toString());
                break;
            } catch (RuntimeException stillFull) {
                assertFalse(System.nanoTime() > until, "the gateway stayed full: " + stillFull);
                Thread.sleep(200);
            }
        }
    }

    @Test
    void anEventStreamOutlivesTheDeadlines() throws Exception {
        try (McpHttpClient c = new McpHttpClient(mcp)) {
            c.initialize("2025-11-25", Json.object());
            McpHttpClient.GetStream stream = c.openGet(null);
            assertEquals(200, stream.status());
            // three times the header and the body deadline: a GET has no body to wait for, and its stream is a response
            Thread.sleep(9_000);
            c.request("tools/call", TwoUpstreamsTest.call("big__flood", "{\"count\":1,\"bytes\":16}"));
            stream.await(m -> "notifications/message".equals(m.path("method").asText()), Duration.ofSeconds(20));
            stream.close();
        }
    }

    private static String hangCall(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"big__hang\",\"arguments\":{}}}";
    }

    /** Sends {@code text} one byte a second until the answer says the connection is over (or 30 s pass). */
    private static void dribble(RawHttp c, String text, CompletableFuture<RawHttp.Received> answer) throws Exception {
        for (int i = 0; i < text.length() && !answer.isDone(); i++) {
            try {
                c.send(text.substring(i, i + 1));
            } catch (IOException closed) {
                return;
            }
            Thread.sleep(1000);
        }
    }

    private static RawHttp.Received read(RawHttp c) {
        try {
            return c.readUntilClosed(GENEROUS_MS);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String reason(String body) {
        int start = body.indexOf('{');
        return start < 0 ? "" : Json.parse(body.substring(start)).path("error").path("data").path("reason").asText();
    }

    private static int status(URI uri) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode();
    }
}
