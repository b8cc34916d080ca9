package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

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
 * Issue 9, item 10, through the gateway: backticks (inline or a fence) cost an attacker nothing, so they must not
 * turn a refused injection into an allowed one; the same text framed by prose that says it is quoted is let
 * through. Tenant {@code guarded}; src/test/node/policy-server.mjs's {@code crafted} tool returns the pages.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class WrappedInjectionTest {
    @TestHTTPResource("/t/guarded/mcp")
    URI guarded;

    private static ObjectNode page(McpHttpClient c, String name) {
        ObjectNode p = Json.object();
        p.put("name", "pol__crafted");
        p.putObject("arguments").put("name", name);
        return c.request("tools/call", p);
    }

    @Test
    void anInjectionInBackticksIsRefusedAndOneDiscussedInACodeBlockIsNot() {
        try (McpHttpClient c = new McpHttpClient(guarded)) {
            c.initialize("2025-11-25", Json.object());
            for (String wrapped : new String[] {"inline-code", "fenced"}) {
                JsonNode r = page(c, wrapped);
                assertEquals(-32001, r.path("error").path("code").asInt(), () -> wrapped + " -> " + r);
                assertEquals("instruction_injection", r.path("error").path("data").path("reason").asText(), r::toString);
                assertFalse(r.toString().contains("credentials"), "the refusal does not quote the payload: " + r);
            }
            JsonNode discussed = page(c, "fenced-discussed");
            String text = discussed.path("result").path("content").path(0).path("text").asText(discussed.toString());
            assertTrue(text.startsWith("A prompt injection we blocked last week") && text.contains("```"), text);
        }
    }
}
