package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.McpTestClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 10, fairness between tenants: a tenant at its cap on sessions ({@code limits.max_sessions}) or on stdio
 * children ({@code limits.max_stdio_children}) is refused with 503 and the code of that limit, while another tenant
 * still gets sessions; a session that ends gives its share back.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class TenantFairnessTest {

    @TestHTTPResource("/t/fair-a/mcp")
    URI fairA;

    @TestHTTPResource("/t/fair-b/mcp")
    URI fairB;

    @TestHTTPResource("/t/fair-kids/mcp")
    URI fairKids;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    /** An initialize as sent by a new client: its HTTP status and body. */
    static McpHttpClient.Raw initializeRaw(McpHttpClient c) {
        return c.post(Json.write(dev.cloakgate.jsonrpc.Messages.request(Json.MAPPER.getNodeFactory().numberNode(1),
                "initialize", McpTestClient.initializeParams("2025-11-25", Json.object()))));
    }

    static void assertRefused(McpHttpClient.Raw r, String reason) {
        assertEquals(503, r.status(), r.body());
        JsonNode e = r.json().path("error");
        assertEquals(reason, e.path("data").path("reason").asText(), r.body());
        assertTrue(e.path("message").asText().contains("limits."), "the message names the setting to change: " + r.body());
    }

    @Test
    void aTenantAtItsSessionCapNeverRefusesAnother() throws Exception {
        List<McpHttpClient> open = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                McpHttpClient c = new McpHttpClient(fairA);
                open.add(c);
                assertTrue(c.initialize("2025-11-25", Json.object()).has("result"), "fair-a session " + i);
            }
            try (McpHttpClient third = new McpHttpClient(fairA)) {
                assertRefused(initializeRaw(third), "too_many_tenant_sessions");
            }
            for (int i = 0; i < 2; i++) {
                McpHttpClient c = new McpHttpClient(fairB);
                open.add(c);
                assertTrue(c.initialize("2025-11-25", Json.object()).has("result"), "fair-b is not refused: " + i);
                assertTrue(c.request("tools/call", TwoUpstreamsTest.call("st__whoami", "{}")).has("result"));
            }
            // a session that ends gives its share back
            assertEquals(200, open.remove(0).delete());
            McpHttpClient again = new McpHttpClient(fairA);
            open.add(again);
            assertTrue(again.initialize("2025-11-25", Json.object()).has("result"), "fair-a has room again");
        } finally {
            open.forEach(McpHttpClient::close);
        }
        String scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(metrics).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(scrape.lines().anyMatch(l -> l.startsWith("cloakgate_sessions_refused_total{")
                && l.contains("reason=\"too_many_tenant_sessions\"") && l.contains("tenant=\"fair-a\"")), scrape);
        assertTrue(scrape.lines().anyMatch(l -> l.startsWith("cloakgate_tenant_stdio_children{")
                && l.contains("tenant=\"fair-b\"")), scrape);
    }

    @Test
    void aTenantAtItsChildCapIsRefusedBeforeAnythingIsSpawned() {
        try (McpHttpClient first = new McpHttpClient(fairKids)) {
            assertTrue(first.initialize("2025-11-25", Json.object()).has("result"));
            try (McpHttpClient second = new McpHttpClient(fairKids)) {
                assertRefused(initializeRaw(second), "too_many_stdio_children");
            }
            assertEquals(200, first.delete());
        }
        try (McpHttpClient after = new McpHttpClient(fairKids)) {
            assertTrue(after.initialize("2025-11-25", Json.object()).has("result"), "the child was given back");
        }
    }
}
