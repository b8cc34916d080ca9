package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;

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
 * Issue 9, item 5, through the gateway: a URL is judged as the WHATWG parser (Node, browsers) reads it. Tabs and
 * newlines inside a URL, character references in markup and scheme-relative backslash forms reach another host
 * than the text seems to name; arguments carrying them are refused, and results carrying them lose the link. The
 * tenant is {@code guarded} (egress allowlist {@code example.com}); its {@code pol} upstream is
 * src/test/node/policy-server.mjs, whose {@code crafted} tool returns the hostile pages.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class EgressAsParsedTest {
    @TestHTTPResource("/t/guarded/mcp")
    URI guarded;

    private McpHttpClient session() {
        McpHttpClient c = new McpHttpClient(guarded);
        c.initialize("2025-11-25", Json.object());
        return c;
    }

    private static ObjectNode call(McpHttpClient c, String tool, String key, String value) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.putObject("arguments").put(key, value);
        return c.request("tools/call", p);
    }

    @Test
    void argumentsThatReachAnotherHostOnceParsedAreRefused() {
        // the tenant allows three calls per tool and session: a session for each pair
        List<String[]> cases = List.of(new String[] {"pol__fetch_url", "url", "https://example.com\t.evil.com/x"},
                new String[] {"pol__fetch_url", "url", "https://example.com\n.evil.com/x"},
                new String[] {"pol__fetch_url", "url", "https://example.com\r.evil.com/x"},
                new String[] {"pol__echo", "text", "https&#58;//evil.com/x"},
                new String[] {"pol__echo", "text", "\\\\evil.com\\share"},
                new String[] {"pol__echo", "text", "/\\evil.com/x"});
        for (int i = 0; i < cases.size(); i += 2) {
            try (McpHttpClient c = session()) {
                for (String[] k : cases.subList(i, i + 2)) {
                    JsonNode r = call(c, k[0], k[1], k[2]);
                    assertEquals(-32001, r.path("error").path("code").asInt(), () -> k[2] + " -> " + r);
                    // a UNC-like value is also a path outside the sandbox; egress must have refused it too
                    assertTrue(r.path("error").path("data").path("controls").toString().contains("egress_control"),
                            r::toString);
                    assertFalse(r.toString().contains("evil"), "the refusal does not quote the value: " + r);
                }
            }
        }
        try (McpHttpClient c = session()) {
            // the same shapes toward an allowed host pass
            assertEquals("fetched", call(c, "pol__fetch_url", "url", "https://docs.example.com\t").path("result")
                    .path("content").path(0).path("text").asText());
            assertEquals("echo:https&#58;//example.com/x", call(c, "pol__echo", "text", "https&#58;//example.com/x")
                    .path("result").path("content").path(0).path("text").asText());
        }
    }

    @Test
    void resultLinksThatReachAnotherHostOnceParsedAreRemoved() {
        List<String> pages = List.of("img-tab", "img-entity", "img-relative", "md-newline");
        for (int i = 0; i < pages.size(); i += 2) {
            try (McpHttpClient c = session()) {
                for (String page : pages.subList(i, i + 2)) {
                    JsonNode r = call(c, "pol__crafted", "name", page);
                    String text = r.path("result").path("content").path(0).path("text").asText();
                    assertTrue(text.startsWith("Chart: ") && text.endsWith(" (quarterly)"), page + " -> " + r);
                    assertTrue(text.contains("[link removed: host not allowed]"), page + " -> " + text);
                    assertFalse(text.contains("evil") || text.contains("c2VjcmV0"), page + " -> " + text);
                }
            }
        }
    }
}
