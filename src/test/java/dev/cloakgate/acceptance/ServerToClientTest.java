package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static dev.cloakgate.acceptance.TwoUpstreamsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Messages upstreams originate reach the right client, under the gateway's ids, and the client's answers
 * reach the right upstream under the upstream's own: sampling, elicitation, progress, cancellation, and the
 * GET stream with its replay after a reconnect. Driven through the real server-everything and probe servers.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
public class ServerToClientTest {
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/t/everything/mcp")
    URI everything;

    @TestHTTPResource("/t/duo/mcp")
    URI duo;

    private static ObjectNode samplingAndElicitation() {
        return Json.obj("{\"sampling\":{},\"elicitation\":{}}");
    }

    @Test
    void samplingRequestReachesTheClientAndItsAnswerReachesTheServer() {
        sampling(everything);
    }

    /** Issue 17: also run through a round-robin front of three replicas (packaged ClusterSessionsIT). */
    public static void sampling(URI everything) {
        try (McpHttpClient c = new McpHttpClient(everything).answering(req -> req.path("method").asText()
                .equals("sampling/createMessage")
                        ? Json.obj("{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"sampled by the test client\"},"
                                + "\"model\":\"test-model\",\"stopReason\":\"endTurn\"}")
                        : Json.object())) {
            c.initialize("2025-11-25", samplingAndElicitation());
            awaitTool(c, "ev__trigger-sampling-request");
            ObjectNode r = c.request("tools/call", call("ev__trigger-sampling-request", "{\"prompt\":\"Say hi\",\"maxTokens\":5}"));
            assertTrue(Json.write(r.path("result")).contains("sampled by the test client"), r.toString());
            ObjectNode asked = c.serverRequests().stream()
                    .filter(m -> m.path("method").asText().equals("sampling/createMessage")).findFirst().orElseThrow();
            assertTrue(asked.path("id").isIntegralNumber(), "server requests arrive under a gateway-issued id");
            assertTrue(Json.write(asked.path("params")).contains("Say hi"));
        }
    }

    @Test
    void elicitationRequestReachesTheClientAndItsAnswerReachesTheServer() {
        try (McpHttpClient c = new McpHttpClient(everything).answering(req -> req.path("method").asText()
                .equals("elicitation/create") ? Json.obj("{\"action\":\"accept\",\"content\":{\"name\":\"Ana Test\"}}")
                        : Json.object())) {
            c.initialize("2025-11-25", samplingAndElicitation());
            awaitTool(c, "ev__trigger-elicitation-request");
            ObjectNode r = c.request("tools/call", call("ev__trigger-elicitation-request", "{}"));
            String result = Json.write(r.path("result"));
            assertTrue(result.contains("User provided the requested information") && result.contains("Ana Test"), result);
        }
    }

    @Test
    void progressArrivesUnderTheClientsOwnToken() {
        progress(everything);
    }

    public static void progress(URI everything) {
        try (McpHttpClient c = new McpHttpClient(everything)) {
            c.initialize("2025-11-25", Json.object());
            ObjectNode params = call("ev__trigger-long-running-operation", "{\"duration\":1,\"steps\":3}");
            params.putObject("_meta").put("progressToken", "client-token-1");
            ObjectNode r = c.request("tools/call", params);
            assertTrue(text(r).contains("Long running operation completed"), r.toString());
            List<ObjectNode> progress = c.notifications().stream()
                    .filter(n -> n.path("method").asText().equals("notifications/progress")).toList();
            assertEquals(3, progress.size(), progress.toString());
            for (ObjectNode p : progress) {
                assertEquals("client-token-1", p.path("params").path("progressToken").asText());
                assertTrue(p.path("params").path("progressToken").isTextual());
            }
            assertEquals(3, progress.get(2).path("params").path("progress").asInt());
        }
    }

    @Test
    void cancellationReachesTheUpstreamOverStdioAndHttp() throws Exception {
        for (String upstream : List.of("alpha", "beta")) {
            try (McpHttpClient c = new McpHttpClient(duo)) {
                c.initialize("2025-11-25", Json.object());
                String before = text(c.request("tools/call", call(upstream + "__cancellations", "{}")));
                CompletableFuture<ObjectNode> slow = c.requestWithId(Json.parse("\"slow-1\""), "tools/call",
                        call(upstream + "__slow", "{\"ms\":20000}"));
                Thread.sleep(400);
                c.notify("notifications/cancelled", Json.obj("{\"requestId\":\"slow-1\",\"reason\":\"test\"}"));
                // nobody owes a cancelled request an answer: the client is released at once
                assertNull(slow.get(5, TimeUnit.SECONDS));
                JsonNode after = Json.parse(awaitChange(c, upstream + "__cancellations", before));
                assertEquals(Json.parse(before).size() + 1, after.size(), upstream + ": " + after);
            }
        }
    }

    @Test
    void listChangedAndResourcesUpdatedReachTheGetStream() {
        try (McpHttpClient c = new McpHttpClient(everything)) {
            c.initialize("2025-11-25", Json.object());
            try (McpHttpClient.GetStream get = c.openGet(null)) {
                assertEquals(200, get.status());
                ObjectNode r = c.request("tools/call", call("ev__gzip-file-as-resource",
                        "{\"name\":\"hello.txt.gz\",\"data\":\"data:text/plain;base64,SGVsbG8gZ2F0ZXdheQ==\"}"));
                get.await(m -> m.path("method").asText().equals("notifications/resources/list_changed"), WAIT);
                // the resource link in the result routes a read to the upstream that made it
                String uri = r.path("result").path("content").findValue("uri").asText();
                ObjectNode read = c.request("resources/read", Json.obj("{\"uri\":\"" + uri + "\"}"));
                assertTrue(read.path("result").path("contents").path(0).has("blob"), read.toString());

                String doc = c.request("resources/list", Json.object()).path("result").path("resources").path(0)
                        .path("uri").asText();
                assertTrue(c.request("resources/subscribe", Json.obj("{\"uri\":\"" + doc + "\"}")).has("result"));
                c.request("tools/call", call("ev__toggle-subscriber-updates", "{}"));
                McpHttpClient.Event updated = get.await(m -> m.path("method").asText()
                        .equals("notifications/resources/updated"), WAIT);
                assertEquals(doc, updated.message().path("params").path("uri").asText());
                c.request("tools/call", call("ev__toggle-subscriber-updates", "{}"));
            }
        }
    }

    @Test
    void reconnectWithLastEventIdReplaysWhatWasMissed() {
        lastEventIdReplay(duo);
    }

    public static void lastEventIdReplay(URI duo) {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            c.initialize("2025-11-25", Json.object());
            String lastSeen;
            try (McpHttpClient.GetStream get = c.openGet(null)) {
                assertEquals(200, get.status());
                c.request("tools/call", call("beta__log", "{\"text\":\"first\",\"standalone\":true}"));
                lastSeen = get.await(m -> Json.write(m).contains("beta: first"), WAIT).id();
                assertNotNull(lastSeen);
            }
            // disconnected: these wait in the session's buffer
            c.request("tools/call", call("beta__log", "{\"text\":\"second\",\"standalone\":true}"));
            c.request("tools/call", call("beta__touch", "{\"standalone\":true}"));
            sleep(500);
            try (McpHttpClient.GetStream resumed = c.openGet(lastSeen)) {
                assertEquals(200, resumed.status());
                resumed.await(m -> Json.write(m).contains("beta: second"), WAIT);
                resumed.await(m -> m.path("method").asText().equals("notifications/resources/updated"), WAIT);
                resumed.await(m -> m.path("method").asText().equals("notifications/tools/list_changed"), WAIT);
                assertFalse(resumed.received().stream().anyMatch(e -> e.message() != null
                        && Json.write(e.message()).contains("beta: first")), "what was seen is not replayed");
            }
        }
    }

    @Test
    void messagesTiedToACallArriveOnItsOwnStreamBeforeTheResult() {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            c.initialize("2025-11-25", Json.object());
            for (String upstream : List.of("alpha", "beta")) {
                int before = c.events().size();
                ObjectNode r = c.request("tools/call", call(upstream + "__log", "{\"text\":\"tied\"}"));
                assertTrue(r.has("result"));
                List<McpHttpClient.Event> onStream = c.events().subList(before, c.events().size());
                assertTrue(onStream.stream().anyMatch(e -> e.message() != null
                        && Json.write(e.message()).contains(upstream + ": tied")), upstream + ": " + onStream);
                assertNull(onStream.get(0).message(), "a POST stream starts with a priming event");
            }
        }
    }

    private static void awaitTool(McpHttpClient c, String name) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            if (Json.write(c.request("tools/list", Json.object())).contains("\"" + name + "\"")) {
                return;
            }
            sleep(100);
        }
        throw new AssertionError(name + " never listed");
    }

    private static String awaitChange(McpHttpClient c, String tool, String before) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            String now = text(c.request("tools/call", call(tool, "{}")));
            if (!now.equals(before)) {
                return now;
            }
            sleep(100);
        }
        throw new AssertionError(tool + " never changed from " + before);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
