package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cloakgate.testing.AuthTenants;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 16: the MCP endpoint asks for the credential before it says anything about the tenant, as the admin API does
 * since issue 15. Without a valid credential of the tenant, {@code /t/{tenant}/mcp} answers the same 401 (status,
 * challenge, body) for a tenant with principals and for a tenant that does not exist, on every method.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class McpCredentialFirstTest {
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"first\",\"version\":\"1\"}}}";

    @TestHTTPResource("/t/")
    URI base;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    /** Everything a caller can tell apart: status, challenge and body. */
    private List<String> seen(String method, String tenant, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(tenant + "/mcp")).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json, text/event-stream");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        b = switch (method) {
            case "POST" -> b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(INIT));
            case "GET" -> b.header("Mcp-Session-Id", "0011223344556677").GET();
            default -> b.header("Mcp-Session-Id", "0011223344556677").DELETE();
        };
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return Arrays.asList(Integer.toString(r.statusCode()), r.headers().firstValue("WWW-Authenticate").orElse(null),
                r.body());
    }

    @Test
    void anUnknownTenantAnswersWhatABadCredentialGets() throws Exception {
        // none, made up, and valid elsewhere (tenant B's agent, static and as a JWT would be: a token of B)
        List<String> credentials = Arrays.asList(null, "made-up-token-8d2f", AuthTenants.B_AGENT);
        for (String method : List.of("POST", "GET", "DELETE")) {
            for (String token : credentials) {
                List<List<String>> answers = new ArrayList<>();
                for (String tenant : List.of("iso-a", "no-such-tenant-3c1e")) {
                    List<String> a = seen(method, tenant, token);
                    assertEquals("401", a.get(0), method + " " + tenant + ": " + a);
                    answers.add(a);
                }
                assertEquals(answers.get(0), answers.get(1), method + " answered differently for a tenant that exists and"
                        + " one that does not (credential " + (token == null ? "none" : "bad") + ")");
            }
        }
    }
}
