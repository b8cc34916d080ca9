package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
 * One tenant, two upstreams (a stdio child and an HTTP server, two instances of the same probe server): both
 * appear as one MCP server, and every request reaches the upstream that owns what it names.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class TwoUpstreamsTest {

    @TestHTTPResource("/t/duo/mcp")
    URI duo;

    @Test
    void toolsOfBothAreListedWithPrefixesAndRoutedIncludingDoubleUnderscoreNames() {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            ObjectNode init = c.initialize("2025-11-25", Json.object());
            JsonNode caps = init.path("result").path("capabilities");
            assertTrue(caps.has("tools") && caps.has("prompts") && caps.has("resources") && caps.has("logging"), caps.toString());

            Set<String> names = new HashSet<>();
            c.request("tools/list", Json.object()).path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
            assertTrue(names.containsAll(Set.of("alpha__echo", "beta__echo", "alpha__read__all", "beta__read__all")), names.toString());
            assertEquals(24, names.size(), "12 probe tools from each upstream");

            assertEquals("alpha:hi", text(c.request("tools/call", call("alpha__echo", "{\"text\":\"hi\"}"))));
            assertEquals("beta:hi", text(c.request("tools/call", call("beta__echo", "{\"text\":\"hi\"}"))));
            assertEquals("alpha read__all", text(c.request("tools/call", call("alpha__read__all", "{}"))));
            assertEquals("beta read__all", text(c.request("tools/call", call("beta__read__all", "{}"))));

            ObjectNode unknown = c.request("tools/call", call("gamma__echo", "{}"));
            assertEquals(-32602, unknown.path("error").path("code").asInt());
            assertEquals("unknown_tool", unknown.path("error").path("data").path("reason").asText());
            ObjectNode unprefixed = c.request("tools/call", call("echo", "{}"));
            assertEquals(-32602, unprefixed.path("error").path("code").asInt());

            // an upstream's own JSON-RPC error passes through unchanged
            ObjectNode failed = c.request("tools/call", call("beta__fail", "{\"text\":\"boom\"}"));
            assertEquals(-32000, failed.path("error").path("code").asInt());
            assertEquals("beta failed: boom", failed.path("error").path("message").asText());
        }
    }

    @Test
    void promptsAndCompletionsRouteByPrefixedName() {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            c.initialize("2025-11-25", Json.object());
            List<String> prompts = new ArrayList<>();
            c.request("prompts/list", Json.object()).path("result").path("prompts").forEach(p -> prompts.add(p.path("name").asText()));
            assertEquals(List.of("alpha__greet", "beta__greet"), prompts);
            ObjectNode got = c.request("prompts/get", Json.obj("{\"name\":\"beta__greet\",\"arguments\":{\"who\":\"Ana\"}}"));
            assertEquals("Hello Ana from beta", got.path("result").path("messages").path(0).path("content").path("text").asText());
            ObjectNode completion = c.request("completion/complete", Json.obj(
                    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"alpha__greet\"},\"argument\":{\"name\":\"who\",\"value\":\"bo\"}}"));
            assertEquals(List.of("bob", "bobby"), values(completion.path("result").path("completion").path("values")));
        }
    }

    @Test
    void resourcesAreMergedPagedAndRoutedByUriNeverRewritten() {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            c.initialize("2025-11-25", Json.object());
            List<String> uris = new ArrayList<>();
            JsonNode page = c.request("resources/list", Json.object()).path("result");
            int pages = 1;
            collect(page, uris);
            while (page.path("nextCursor").isTextual()) {
                String cursor = page.path("nextCursor").textValue();
                assertFalse(cursor.contains("alpha") || cursor.contains("beta"), "cursors are opaque: " + cursor);
                page = c.request("resources/list", Json.obj("{\"cursor\":\"" + cursor + "\"}")).path("result");
                collect(page, uris);
                pages++;
            }
            assertEquals(2, pages, "each probe serves two pages of two and one; merged they take two pages");
            assertEquals(Set.of("probe://alpha/doc", "probe://alpha/a", "probe://alpha/b", "probe://beta/doc",
                    "probe://beta/a", "probe://beta/b"), new HashSet<>(uris));
            assertEquals(6, uris.size());

            ObjectNode bad = c.request("resources/list", Json.obj("{\"cursor\":\"forged\"}"));
            assertEquals("invalid_cursor", bad.path("error").path("data").path("reason").asText());

            JsonNode templates = c.request("resources/templates/list", Json.object()).path("result").path("resourceTemplates");
            assertEquals(2, templates.size());

            assertEquals("doc of beta", readText(c, "probe://beta/doc"));
            assertEquals("doc of alpha", readText(c, "probe://alpha/doc"));
            // a templated URI never listed routes by template
            assertEquals("item 42 of beta", readText(c, "probe://beta/items/42"));
            ObjectNode nowhere = c.request("resources/read", Json.obj("{\"uri\":\"probe://gamma/doc\"}"));
            assertEquals("unknown_resource", nowhere.path("error").path("data").path("reason").asText());

            ObjectNode sub = c.request("resources/subscribe", Json.obj("{\"uri\":\"probe://beta/doc\"}"));
            assertTrue(sub.has("result"), sub.toString());
            String subs = text(c.request("tools/call", call("beta__subscriptions", "{}")));
            assertTrue(subs.contains("probe://beta/doc"), subs);
            assertFalse(text(c.request("tools/call", call("alpha__subscriptions", "{}"))).contains("probe://beta/doc"));
        }
    }

    @Test
    void twoClientsOfOneTenantNeverShareUpstreamSessionsOrIds() {
        try (McpHttpClient a = new McpHttpClient(duo); McpHttpClient b = new McpHttpClient(duo)) {
            a.initialize("2025-11-25", Json.object());
            b.initialize("2025-11-25", Json.object());
            assertNotEquals(a.sessionId(), b.sessionId());
            // the same client-side ids in flight in both sessions at once
            var fa = a.requestWithId(Json.parse("7"), "tools/call", call("alpha__slow", "{\"ms\":300}"));
            var fb = b.requestWithId(Json.parse("7"), "tools/call", call("alpha__echo", "{\"text\":\"b\"}"));
            assertEquals("alpha:b", text(fb.join()));
            assertEquals(7, fa.join().path("id").asInt());
            assertTrue(fa.join().has("result"));
        }
    }

    @Test
    void loggingSetLevelFansOutAndPingIsAnsweredByTheGateway() {
        try (McpHttpClient c = new McpHttpClient(duo)) {
            c.initialize("2025-11-25", Json.object());
            assertTrue(c.request("logging/setLevel", Json.obj("{\"level\":\"warning\"}")).has("result"));
            // below the level on both upstreams now: no log notification arrives, the call still answers
            assertTrue(c.request("tools/call", call("alpha__log", "{\"text\":\"quiet\"}")).has("result"));
            assertTrue(c.request("tools/call", call("beta__log", "{\"text\":\"quiet\"}")).has("result"));
            assertTrue(c.notifications().stream().noneMatch(n -> n.path("method").asText().equals("notifications/message")),
                    c.notifications().toString());
            assertEquals(Json.object(), c.request("ping", null).path("result"));
        }
    }

    static void collect(JsonNode page, List<String> uris) {
        page.path("resources").forEach(r -> uris.add(r.path("uri").asText()));
    }

    static String readText(McpHttpClient c, String uri) {
        return c.request("resources/read", Json.obj("{\"uri\":\"" + uri + "\"}")).path("result").path("contents").path(0)
                .path("text").asText();
    }

    static List<String> values(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(v -> out.add(v.asText()));
        return out;
    }

    static ObjectNode call(String name, String args) {
        ObjectNode p = Json.object();
        p.put("name", name);
        p.set("arguments", Json.parse(args));
        return p;
    }

    static String text(ObjectNode response) {
        return response.path("result").path("content").path(0).path("text").asText(response.toString());
    }
}
