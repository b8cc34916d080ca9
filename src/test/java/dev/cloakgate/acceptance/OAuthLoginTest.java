package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.TestAuthorizationServer;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 16, a real OAuth flow: the TypeScript SDK's own client (its {@code OAuthClientProvider} and
 * {@code StreamableHTTPClientTransport}'s {@code authProvider}, in {@code src/test/node/oauth-login-client.mjs})
 * connects to tenant {@code oauth-a} without a token, finds the authorization server from the gateway's 401 and
 * metadata by itself, registers, is authorized with PKCE by the test's server ({@link TestAuthorizationServer}),
 * obtains a token for the tenant's resource and calls a tool through the gateway: the result arrives, cloaked. That
 * token opens nothing of tenant {@code oauth-b} (another resource), and never reached the upstream.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class OAuthLoginTest {
    @TestHTTPResource("/t/oauth-a/mcp")
    URI a;

    @TestHTTPResource("/t/oauth-b/mcp")
    URI b;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    private List<String> initialize(URI tenant, String token) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(tenant).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"o\",\"version\":\"1\"}}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        return Arrays.asList(Integer.toString(r.statusCode()), r.headers().firstValue("WWW-Authenticate").orElse(null), r.body());
    }

    @Test
    void theSdkClientLogsInByItselfAndCallsAToolThroughTheGateway() throws Exception {
        Map.Entry<Integer, String> run = NodeFixtures.run(Duration.ofSeconds(120),
                NodeFixtures.DIR.resolve("oauth-login-client.mjs").toString(), a.toString(), "hr__whoami");
        assertEquals(0, run.getKey(), "the SDK client's login failed (its error is on stderr): " + run.getValue());
        JsonNode out = Json.obj(run.getValue().strip().lines().reduce((x, y) -> y).orElse("{}"));
        String text = out.path("result").path("content").path(0).path("text").asText();
        assertTrue(text.contains("[EMAIL_"), "the tool result arrived, cloaked: " + out.path("result"));
        assertFalse(text.contains("ops.lead@example.org"), text);
        // the SDK asked for this tenant's resource (RFC 8707) and the scope of the challenge
        assertEquals(a.toString(), out.path("resource").asText());
        List<JsonNode> issued = TestAuthorizationServer.issued(Path.of(System.getProperty("test.oauth.issued")));
        assertTrue(issued.stream().anyMatch(i -> i.path("resource").asText().equals(a.toString())
                && i.path("scope").asText().equals("mcp:tools")), "the token was issued for A's resource: " + issued);

        String token = out.path("token").asText();
        assertEquals("200", initialize(a, token).get(0), "the token opens A");
        List<String> atB = initialize(b, token);
        assertEquals("401", atB.get(0), "A's token at B: " + atB);
        assertEquals(initialize(b, "made-up-token-7c2d"), atB, "refused at B as any bad token is");
        assertFalse(Files.readString(Path.of(System.getProperty("test.oauth.headers"))).contains(token),
                "the agent's token reached the upstream");
    }
}
