package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static dev.cloakgate.acceptance.TwoUpstreamsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.TransportLimitsProfile;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 9, item 7: an upstream message over the limit is judged while it is read, before any parsing or
 * detection, and the call it answers is answered at once, over stdio and over HTTP (event streams and JSON
 * bodies). The test profile's request timeout is 90 s; an answer that waited for it would take a third of that
 * and more.
 */
@QuarkusTest
@TestProfile(TransportLimitsProfile.class)
class OversizedMessageTest {
    private static final long PROMPT_MS = TransportLimitsProfile.REQUEST_TIMEOUT_MS / 3;

    @TestHTTPResource("/t/big-stdio/mcp")
    URI bigStdio;

    @TestHTTPResource("/t/big-http/mcp")
    URI bigHttp;

    /** The same upstream answering each POST with one JSON body instead of an event stream. */
    @TestHTTPResource("/t/big-json/mcp")
    URI bigJson;

    @TestHTTPResource("/t/big-policy/mcp")
    URI bigPolicy;

    @TestHTTPResource("/t/bulk/mcp")
    URI bulk;

    @TestHTTPResource("/t/other/mcp")
    URI other;

    @Test
    void aResultOverTheLimitIsAnsweredAtOnceNamingTheUpstreamAndTheLimit() {
        for (URI tenant : List.of(bigStdio, bigHttp, bigJson)) {
            try (McpHttpClient c = new McpHttpClient(tenant)) {
                c.initialize("2025-11-25", Json.object());
                long t0 = System.nanoTime();
                ObjectNode r = c.request("tools/call", call("big__huge",
                        "{\"bytes\":" + 3 * TransportLimitsProfile.MESSAGE_LIMIT + "}"));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < PROMPT_MS, tenant + ": answered after " + ms + " ms, as if it waited for the timeout");
                JsonNode e = r.path("error");
                assertEquals(-32603, e.path("code").asInt(), r.toString());
                assertEquals("upstream_message_too_large", e.path("data").path("reason").asText(), r.toString());
                assertEquals("big", e.path("data").path("upstream").asText(), r.toString());
                assertEquals(TransportLimitsProfile.MESSAGE_LIMIT, e.path("data").path("limit").asInt(), r.toString());
                assertTrue(e.path("message").asText().contains(String.valueOf(TransportLimitsProfile.MESSAGE_LIMIT)),
                        r.toString());
                // the link survives: the next call is answered as usual
                assertEquals("big:still here", text(c.request("tools/call", call("big__echo", "{\"text\":\"still here\"}"))));
            }
        }
    }

    @Test
    void withAPolicyAnOversizedResultIsTheBudgetsRefusalAndIsTraced() throws Exception {
        try (McpHttpClient c = new McpHttpClient(bigPolicy)) {
            c.initialize("2025-11-25", Json.object());
            for (String tool : List.of("st__huge", "ht__huge")) {
                long t0 = System.nanoTime();
                ObjectNode r = c.request("tools/call", call(tool, "{\"bytes\":" + 3 * TransportLimitsProfile.MESSAGE_LIMIT + "}"));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < PROMPT_MS, tool + ": answered after " + ms + " ms");
                JsonNode e = r.path("error");
                assertEquals(-32001, e.path("code").asInt(), r.toString());
                assertEquals("output_too_large", e.path("data").path("reason").asText(), r.toString());
                assertEquals(tool, e.path("data").path("tool").asText(), r.toString());
                assertTrue(e.path("data").path("controls").toString().contains("budget"), r.toString());

                // over output_bytes but under the gateway's own limit: the same refusal, by the same control
                ObjectNode mid = c.request("tools/call", call(tool, "{\"bytes\":" + 4 * TransportLimitsProfile.OUTPUT_BYTES + "}"));
                assertEquals("output_too_large", mid.path("error").path("data").path("reason").asText(), mid.toString());

                // a result within output_bytes (its envelope aside) passes
                ObjectNode fits = c.request("tools/call", call(tool, "{\"bytes\":" + (TransportLimitsProfile.OUTPUT_BYTES - 200) + "}"));
                assertTrue(fits.has("result"), fits.toString().substring(0, Math.min(300, fits.toString().length())));
            }
        }
        Path trace = Path.of(System.getProperty("test.transport.data.dir")).resolve("trace/big-policy.jsonl");
        List<JsonNode> refused = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < until) {
            refused.clear();
            if (Files.exists(trace)) {
                Files.readString(trace).lines().map(Json::parse)
                        .filter(n -> n.path("reason").asText().equals("output_too_large")).forEach(refused::add);
            }
            if (refused.size() >= 4) {
                break;
            }
            Thread.sleep(100);
        }
        assertTrue(refused.size() >= 4, "each refusal is a traced decision: " + refused);
        for (String tool : List.of("st__huge", "ht__huge")) {
            assertTrue(refused.stream().anyMatch(n -> n.path("tool").asText().equals(tool)
                    && n.path("stage").asText().equals("response") && n.path("action").asText().equals("block")
                    && n.path("controls").toString().contains("budget")), tool + " in " + refused);
        }
    }

    @Test
    void largeResultsOnOneTenantDoNotHoldUpAnothersSmallCall() throws Exception {
        try (McpHttpClient heavy = new McpHttpClient(bulk); McpHttpClient light = new McpHttpClient(other)) {
            heavy.initialize("2025-11-25", Json.object());
            light.initialize("2025-11-25", Json.object());
            int size = TransportLimitsProfile.MESSAGE_LIMIT - 64 * 1024;
            List<CompletableFuture<ObjectNode>> big = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                big.add(heavy.requestAsync("tools/call", call("big__huge", "{\"bytes\":" + size + ",\"pii\":true}")));
            }
            ObjectNode small = light.requestAsync("tools/call", call("other__echo", "{\"text\":\"quick\"}"))
                    .get(60, TimeUnit.SECONDS);
            assertEquals("other:quick", text(small));
            // one large-message worker cloaks the six one after the other; the small call did not wait for them
            long stillWorking = big.stream().filter(f -> !f.isDone()).count();
            assertTrue(stillWorking > 0, "the small call was answered only after all the large results");
            for (CompletableFuture<ObjectNode> f : big) {
                ObjectNode r = f.get(TransportLimitsProfile.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                String t = text(r);
                assertTrue(r.has("result"), t.substring(0, Math.min(300, t.length())));
                assertFalse(t.contains("marie.dubois@example-eu.fr"), "the large results were cloaked");
            }
        }
    }
}
