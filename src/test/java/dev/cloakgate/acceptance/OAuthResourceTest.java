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

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.OAuthTenants;
import dev.cloakgate.testing.TestAuthorizationServer;
import dev.cloakgate.testing.TestJwts;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 16, over real HTTP: tenants {@code oauth-a} and {@code oauth-b} are OAuth protected resources
 * (testing/OAuthTenants). Each publishes RFC 9728 metadata at the path the MCP specification gives for its URL; any
 * other tenant, and one that does not exist, get the same 404 there. A 401 points to the metadata; a token is
 * accepted only for this tenant's resource and with the agent scope (403 insufficient_scope without it); the agent's
 * bearer never reaches the upstream (its own record of the headers it received); the subject (an e-mail address)
 * reaches neither the gateway's log nor the ledger.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class OAuthResourceTest {
    @TestHTTPResource("/t/oauth-a/mcp")
    URI a;

    @TestHTTPResource("/t/oauth-b/mcp")
    URI b;

    @TestHTTPResource("/")
    URI root;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    private static TestJwts key() {
        return TestJwts.imported(System.getProperty("test.oauth.key"));
    }

    private static String issuer() {
        return System.getProperty("test.oauth.issuer");
    }

    private static String token(URI resource, String scope) {
        return TestAuthorizationServer.mint(key(), issuer(), resource.toString(), scope);
    }

    private URI metadataUrl(String tenant) {
        return root.resolve(".well-known/oauth-protected-resource/t/" + tenant + "/mcp");
    }

    private HttpResponse<String> get(URI u) throws Exception {
        return http.send(HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An initialize with this bearer (or none): status, challenge, body. */
    private List<String> initialize(URI tenant, String token) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(tenant).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"o\",\"version\":\"1\"}}}"));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> resp = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
        return Arrays.asList(Integer.toString(resp.statusCode()), resp.headers().firstValue("WWW-Authenticate").orElse(null),
                resp.body());
    }

    @Test
    void eachOAuthTenantPublishesItsResourceMetadataAndNoOtherTenantDoes() throws Exception {
        for (String tenant : OAuthTenants.TENANTS) {
            HttpResponse<String> r = get(metadataUrl(tenant));
            assertEquals(200, r.statusCode(), r.body());
            JsonNode m = Json.obj(r.body());
            assertEquals(root.resolve("t/" + tenant + "/mcp").toString(), m.path("resource").asText());
            assertEquals(List.of(issuer()), Json.MAPPER.convertValue(m.path("authorization_servers"), List.class));
            assertEquals(List.of("mcp:tools", "mcp:audit"), Json.MAPPER.convertValue(m.path("scopes_supported"), List.class));
            assertEquals(List.of("header"), Json.MAPPER.convertValue(m.path("bearer_methods_supported"), List.class));
        }
        // a tenant without OAuth (open, or with bearer principals) and one that does not exist: one answer
        HttpResponse<String> none = get(metadataUrl("no-such-tenant-3c1e"));
        assertEquals(404, none.statusCode());
        assertEquals("no_resource_metadata", Json.obj(none.body()).path("error").asText());
        for (String tenant : List.of("fs", "iso-a")) {
            HttpResponse<String> r = get(metadataUrl(tenant));
            assertEquals(List.of(404, none.body()), List.of(r.statusCode(), r.body()), tenant);
        }
    }

    @Test
    void a401PointsToTheMetadataAndTheAgentScope() throws Exception {
        String rm = "resource_metadata=\"" + metadataUrl("oauth-a") + "\"";
        List<String> missing = initialize(a, null);
        assertEquals("401", missing.get(0));
        assertEquals("Bearer realm=\"cloakgate\", " + rm + ", scope=\"mcp:tools\"", missing.get(1));
        assertEquals("missing_credential", Json.obj(missing.get(2)).path("error").path("data").path("reason").asText());
        List<String> bad = initialize(a, "made-up-token-5e1a");
        assertEquals("401", bad.get(0));
        assertEquals("Bearer realm=\"cloakgate\", error=\"invalid_token\", " + rm + ", scope=\"mcp:tools\"", bad.get(1));
    }

    @Test
    void aTokenIsAcceptedOnlyForThisTenantsResource() throws Exception {
        List<String> madeUp = initialize(a, "made-up-token-5e1a");
        String other = a.toString();
        for (String audience : List.of(b.toString(), "https://other-service.example/mcp", other + "/", other.replace("/mcp", ""),
                other.toUpperCase(java.util.Locale.ROOT), "")) {
            String t = TestAuthorizationServer.mint(key(), issuer(), audience, OAuthTenants.AGENT_SCOPE);
            assertEquals(madeUp, initialize(a, t), "a token for " + audience + " is refused at A as any bad token");
        }
        // B's token at B is fine; the same token at A is not
        assertEquals("200", initialize(b, token(b, OAuthTenants.AGENT_SCOPE)).get(0));
        // another issuer (a key of its own claiming the same iss) is refused alike
        String forged = TestJwts.generate("oauth-as-1").sign(withScope(TestJwts.claims(issuer(), a.toString(),
                TestAuthorizationServer.SUBJECT), OAuthTenants.AGENT_SCOPE));
        assertEquals(madeUp, initialize(a, forged));
    }

    private static org.jose4j.jwt.JwtClaims withScope(org.jose4j.jwt.JwtClaims c, String scope) {
        c.setClaim("scope", scope);
        return c;
    }

    @Test
    void withoutTheAgentScopeItIs403InsufficientScope() throws Exception {
        List<String> r = initialize(a, token(a, OAuthTenants.AUDIT_SCOPE));
        assertEquals("403", r.get(0), r.toString());
        assertEquals("Bearer realm=\"cloakgate\", error=\"insufficient_scope\", resource_metadata=\"" + metadataUrl("oauth-a")
                + "\", scope=\"mcp:tools\"", r.get(1));
        assertEquals("insufficient_scope", Json.obj(r.get(2)).path("error").path("data").path("reason").asText());
        // the audit scope opens the ledger export, the role it grants
        HttpResponse<String> export = http.send(HttpRequest.newBuilder(root.resolve("admin/t/oauth-a/ledger/export"))
                .header("Authorization", "Bearer " + token(a, OAuthTenants.AUDIT_SCOPE)).timeout(Duration.ofSeconds(60))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, export.statusCode(), export.body());
    }

    @Test
    void theAgentsBearerNeverReachesTheUpstreamAndTheSubjectIsNeverWritten() throws Exception {
        String token = token(a, OAuthTenants.AGENT_SCOPE);
        try (McpHttpClient c = new McpHttpClient(a, token)) {
            assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
            JsonNode result = c.request("tools/call", Json.obj("{\"name\":\"hr__whoami\",\"arguments\":{}}"));
            String text = result.path("result").path("content").path(0).path("text").asText();
            assertTrue(text.contains("[EMAIL_"), "cloaked as usual: " + result);
            assertFalse(text.contains("ops.lead@example.org"), text);
        }
        String headers = Files.readString(Path.of(System.getProperty("test.oauth.headers")));
        assertTrue(headers.contains("tools/call") || headers.lines().count() >= 3, "the upstream was reached: " + headers);
        assertFalse(headers.contains(token), "the agent's token reached the upstream");
        assertFalse(headers.contains(token.substring(token.lastIndexOf('.') + 1)), "the token's signature reached the upstream");
        for (String line : headers.lines().filter(l -> !l.isBlank()).toList()) {
            assertFalse(Json.obj(line).path("headers").has("authorization"), "an Authorization header reached the upstream: " + line);
        }
        // the subject, an e-mail address, is in no log line and no ledger entry; its principal is people~<digest>
        HttpResponse<String> export = http.send(HttpRequest.newBuilder(root.resolve("admin/t/oauth-a/ledger/export"))
                .header("Authorization", "Bearer " + token(a, OAuthTenants.AUDIT_SCOPE)).timeout(Duration.ofSeconds(60))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, export.statusCode());
        assertFalse(export.body().contains(TestAuthorizationServer.SUBJECT), "the subject is in the ledger");
        String log = Files.readString(Path.of(System.getProperty("test.gateway.log")));
        assertFalse(log.contains(TestAuthorizationServer.SUBJECT), "the subject is in the gateway's log");
        assertFalse(log.contains(token), "the token is in the gateway's log");
        assertTrue(log.contains("to auditor people~"), "the export names the subject's principal by its digest");
    }
}
