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
 * Issue 14: every surface an upstream writes on reaches the agent through the cloak, also when the upstream is
 * careless (a real stdio server, {@code sloppy-server.mjs}): an error or a result that is a bare string, and a
 * failed list whose error the gateway hands on, members beside {@code error} included. The values sit where the
 * cloak finds them whatever its PERSON model does (e-mail, SSN, names under keys that name a person).
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class LeakSurfacesTest {
    private static final List<String> PLANTED = List.of("marie.dubois@example-eu.fr", "123-45-6789", "Marie Dubois",
            "James Okafor");

    @TestHTTPResource("/t/sloppy/mcp")
    URI sloppy;

    private static void assertCloaked(String what, JsonNode received) {
        String all = Json.write(received);
        for (String v : PLANTED) {
            assertFalse(all.contains(v), v + " reached the client in " + what + ": " + all);
        }
    }

    @Test
    void aBareStringErrorOrResultIsCloaked() {
        try (McpHttpClient c = new McpHttpClient(sloppy)) {
            c.initialize("2025-11-25", Json.object());
            ObjectNode error = c.request("tools/call", Json.obj("{\"name\":\"sl__string_error\",\"arguments\":{}}"));
            assertCloaked("a string error", error);
            assertTrue(error.path("error").asText().matches("lookup failed for \\[EMAIL_\\d+], SSN \\[US_SSN_\\d+]"),
                    error.toString());
            ObjectNode result = c.request("tools/call", Json.obj("{\"name\":\"sl__string_result\",\"arguments\":{}}"));
            assertCloaked("a string result", result);
            assertTrue(result.path("result").asText().matches("customer \\[EMAIL_\\d+], SSN \\[US_SSN_\\d+]"),
                    result.toString());
        }
    }

    @Test
    void aFailedListsErrorIsCloakedAndNothingBesideItPasses() {
        try (McpHttpClient c = new McpHttpClient(sloppy)) {
            c.initialize("2025-11-25", Json.object());
            for (String method : List.of("prompts/list", "resources/list")) {
                ObjectNode r = c.request(method, Json.object());
                assertCloaked("the error of " + method, r);
                assertEquals(-32603, r.path("error").path("code").asInt(), r.toString());
                assertTrue(r.path("error").path("message").asText().contains("[EMAIL_"), r.toString());
                assertTrue(r.path("error").path("data").path("owner").asText().startsWith("[PERSON_"), r.toString());
            }
        }
    }
}
