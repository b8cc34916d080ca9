package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static dev.cloakgate.acceptance.TwoUpstreamsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An upstream that dies, hangs or is not there: every in-flight request gets an error naming it within a
 * bounded time, the session stays usable for its other upstreams, the upstream comes back on next use, and
 * the gateway stays up throughout.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class UpstreamFailureTest {

    @TestHTTPResource("/t/duo/mcp")
    URI duo;

    @TestHTTPResource("/t/flaky/mcp")
    URI flaky;

    @TestHTTPResource("/t/dead/mcp")
    URI dead;

    @TestHTTPResource("/t/mismatch/mcp")
    URI mismatch;

    @TestHTTPResource(value = "/health/live", management = true)
    URI live;

    @AfterEach
    void gatewayIsStillUp() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(live).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    void childKilledMidCallIsReportedPromptlyAndComesBackOnNextUse() throws Exception {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            Set<Long> before = alphaChildren();
            c.initialize("2025-11-25", Json.object());
            Set<Long> mine = alphaChildren();
            mine.removeAll(before);
            assertEquals(1, mine.size(), "one stdio child per session");
            ProcessHandle child = ProcessHandle.of(mine.iterator().next()).orElseThrow();

            CompletableFuture<ObjectNode> slow = c.requestAsync("tools/call", call("alpha__slow", "{\"ms\":30000}"));
            Thread.sleep(300);
            long killedAt = System.nanoTime();
            new ProcessBuilder("kill", "-9", String.valueOf(child.pid())).start().waitFor();
            ObjectNode r = slow.get(5, TimeUnit.SECONDS);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertTrue(ms < 3000, "error took " + ms + " ms");
            assertEquals(-32603, r.path("error").path("code").asInt(), r.toString());
            assertEquals("upstream_exited", r.path("error").path("data").path("reason").asText());
            assertEquals("alpha", r.path("error").path("data").path("upstream").asText());
            assertTrue(r.path("error").path("message").asText().contains("'alpha'"));

            // the other upstream never noticed, and alpha is re-spawned on next use
            assertEquals("beta:still here", text(c.request("tools/call", call("beta__echo", "{\"text\":\"still here\"}"))));
            assertEquals("alpha:back", text(c.request("tools/call", call("alpha__echo", "{\"text\":\"back\"}"))));
        }
    }

    @Test
    void upstreamThatExitsWithoutAnsweringIsReported() {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            c.initialize("2025-11-25", Json.object());
            ObjectNode r = c.request("tools/call", call("alpha__exit", "{}"));
            assertEquals("upstream_exited", r.path("error").path("data").path("reason").asText(), r.toString());
            assertTrue(r.path("error").path("message").asText().contains("status 3"), r.toString());
            assertEquals("alpha:again", text(c.request("tools/call", call("alpha__echo", "{\"text\":\"again\"}"))));
        }
    }

    @Test
    void hungUpstreamTimesOutNamingItAndTheSessionStaysUsable() {
        for (String upstream : List.of("alpha", "beta")) {
            try (McpHttpClient c = new McpHttpClient(duo)) {
                c.initialize("2025-11-25", Json.object());
                long t0 = System.nanoTime();
                ObjectNode r = c.request("tools/call", call(upstream + "__hang", "{}"));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertEquals("upstream_timeout", r.path("error").path("data").path("reason").asText(), r.toString());
                assertEquals(upstream, r.path("error").path("data").path("upstream").asText());
                assertTrue(ms >= 5500 && ms < 9000, "timeout after " + ms + " ms (configured 6 s)");
                assertEquals(upstream + ":ok", text(c.request("tools/call", call(upstream + "__echo", "{\"text\":\"ok\"}"))));
            }
        }
    }

    @Test
    void httpUpstreamThatIsDownGetsAClearErrorWhileTheOtherServes() {
        try (McpHttpClient c = new McpHttpClient(flaky)) {
            ObjectNode init = c.initialize("2025-11-25", Json.object());
            assertTrue(init.has("result"), "one live upstream is enough to start a session: " + init);
            long t0 = System.nanoTime();
            ObjectNode r = c.request("tools/call", call("down__anything", "{}"));
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 3000);
            assertEquals("upstream_unavailable", r.path("error").path("data").path("reason").asText(), r.toString());
            assertEquals("down", r.path("error").path("data").path("upstream").asText());
            assertEquals("alpha:fine", text(c.request("tools/call", call("alpha__echo", "{\"text\":\"fine\"}"))));
            // lists leave the missing upstream out rather than failing
            String tools = Json.write(c.request("tools/list", Json.object()));
            assertTrue(tools.contains("alpha__echo") && !tools.contains("down__"), tools);
        }
    }

    @Test
    void tenantWhoseOnlyUpstreamIsDownRefusesTheHandshakeNamingIt() {
        try (McpHttpClient c = new McpHttpClient(dead)) {
            ObjectNode r = c.initialize("2025-11-25", Json.object());
            assertEquals("upstream_unavailable", r.path("error").path("data").path("reason").asText(), r.toString());
            assertTrue(r.path("error").path("message").asText().contains("'gone'"), r.toString());
            assertEquals(null, c.sessionId(), "no session is issued for a failed handshake");
        }
    }

    @Test
    void upstreamsThatNegotiateDifferentVersionsAreNotBridged() {
        try (McpHttpClient c = new McpHttpClient(mismatch)) {
            ObjectNode r = c.initialize("2025-11-25", Json.object());
            assertEquals("protocol_version_mismatch", r.path("error").path("data").path("reason").asText(), r.toString());
            assertEquals("old", r.path("error").path("data").path("upstream").asText());
            assertEquals("2025-03-26", r.path("error").path("data").path("versions").path("old").asText());
            assertEquals(null, c.sessionId());
        }
    }

    private static Set<Long> alphaChildren() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(cl -> cl.contains("probe-server.mjs") && cl.contains("alpha"))
                        .orElse(false))
                .map(ProcessHandle::pid).collect(Collectors.toSet());
    }
}
