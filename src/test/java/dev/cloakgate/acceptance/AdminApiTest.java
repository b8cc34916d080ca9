package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.evidence.LogTag;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.testing.AdminHttp;
import dev.cloakgate.testing.AdminHttp.Answer;
import dev.cloakgate.testing.AuthTenants;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.StoredEntries;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 10, admin API over real HTTP: each endpoint opens only to a principal of its tenant holding its role, refuses
 * everyone else as the MCP endpoint does, names sessions by tag (never by id), and records what an operator changed
 * in the tenant's ledger with the operator's name.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class AdminApiTest {

    @TestHTTPResource("/t/iso-a/mcp")
    URI a;

    @TestHTTPResource("/admin/t/")
    URI admin;

    @Inject
    Gateway gateway;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private Answer send(String method, String path, String token) throws Exception {
        return new AdminHttp(admin).send(method, path, token);
    }

    @Test
    void anOperatorListsAndEndsSessionsByTagAndTheLedgerSaysWho() throws Exception {
        try (McpHttpClient agent = new McpHttpClient(a, AuthTenants.A_AGENT)) {
            assertTrue(agent.initialize("2025-11-25", Json.object()).has("result"));
            String id = agent.sessionId();
            String tag = LogTag.of(id);

            Answer list = send("GET", "iso-a/sessions", AuthTenants.A_OPERATOR);
            assertEquals(200, list.status(), list.body());
            assertFalse(list.body().contains(id), "a session id (a bearer handle) in the admin API's answer");
            JsonNode mine = null;
            for (JsonNode s : list.json().path("sessions")) {
                if (s.path("session").asText().equals(tag)) {
                    mine = s;
                }
            }
            assertTrue(mine != null, "the agent's session is listed by its tag: " + list.body());
            assertEquals("a-agent", mine.path("principal").asText());
            assertEquals("2025-11-25", mine.path("protocol_version").asText());
            assertTrue(mine.path("upstreams").has("probe"), list.body());

            // B's operator sees none of A's sessions, and is refused on A as a made-up token is
            Answer onB = send("GET", "iso-b/sessions", AuthTenants.B_OPERATOR);
            assertEquals(200, onB.status(), onB.body());
            assertFalse(onB.body().contains(tag), "A's session listed in B");
            Answer madeUp = send("GET", "iso-a/sessions", "made-up-token-0000000000000000");
            Answer bOnA = send("DELETE", "iso-a/sessions/" + tag, AuthTenants.B_OPERATOR);
            assertEquals(401, madeUp.status());
            assertEquals("invalid_token", madeUp.error());
            assertEquals(madeUp, new Answer(bOnA.status(), bOnA.challenge(), bOnA.body()), "B's operator on A");

            long before = ledgerSize("iso-a");
            Answer end = send("DELETE", "iso-a/sessions/" + tag, AuthTenants.A_OPERATOR);
            assertEquals(204, end.status(), end.body());
            McpHttpClient.Raw after = agent.post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}");
            assertEquals(404, after.status(), "the ended session's id opens nothing: " + after.body());
            Answer again = send("DELETE", "iso-a/sessions/" + tag, AuthTenants.A_OPERATOR);
            assertEquals(404, again.status());
            assertEquals("unknown_session", again.error());

            List<JsonNode> ended = entries("iso-a", before, "session_ended");
            assertEquals(1, ended.size(), "one session_ended entry");
            assertEquals("a-operator", ended.get(0).path("principal").asText());
            assertFalse(ended.get(0).toString().contains(id), "the session id in the ledger");
            assertFalse(ended.get(0).path("session").asText().isEmpty(), "the session's keyed digest is recorded");
        }
    }

    @Test
    void tenantStatusNamesTheServingConfigurationAndItsSessions() throws Exception {
        try (McpHttpClient agent = new McpHttpClient(a, AuthTenants.A_AGENT)) {
            assertTrue(agent.initialize("2025-11-25", Json.object()).has("result"));
            Answer status = send("GET", "iso-a/status", AuthTenants.A_OPERATOR);
            assertEquals(200, status.status(), status.body());
            JsonNode s = status.json();
            assertEquals("iso-a", s.path("tenant").asText());
            assertEquals(Upstreams.sha256File(Path.of(gateway.config().tenantsDir()).resolve("iso-a.json")),
                    s.path("config_sha256").asText(), "the digest of the file serving");
            assertTrue(s.path("accepting_sessions").asBoolean(), status.body());
            assertFalse(s.path("file_rejected").asBoolean(), status.body());
            assertTrue(s.path("last_rejected").isNull(), status.body());
            assertTrue(s.path("sessions_open").asInt() >= 1, status.body());
            assertFalse(s.path("loaded_at").asText().isEmpty(), status.body());
            assertEquals("up", s.path("upstreams").path("probe").path("state").asText(), status.body());
        }
    }

    @Test
    void tenantStatusSaysWhyAnUpstreamIsDown() throws Exception {
        try (McpHttpClient c = new McpHttpClient(admin.resolve("/t/broken/mcp"))) {
            c.initialize("2025-11-25", Json.object());
        }
        Answer status = send("GET", "broken/status", Upstreams.OPERATOR_TOKEN);
        assertEquals(200, status.status(), status.body());
        JsonNode gone = status.json().path("upstreams").path("gone");
        assertEquals("down", gone.path("state").asText(), status.body());
        assertEquals("upstream_exited", gone.path("last_failure").path("reason").asText(), status.body());
        String diagnostic = gone.path("last_failure").path("diagnostic").asText();
        assertTrue(diagnostic.contains("cannot read configuration"), "the head of its stderr: " + status.body());
        assertFalse(diagnostic.contains("operator.contact@example-broken.org") || diagnostic.contains("AKIAQ3EGRT6SLPXY7VZ2"),
                "values in the stderr head are scrubbed: " + diagnostic);
        assertEquals("up", status.json().path("upstreams").path("alpha").path("state").asText(), status.body());
    }

    @Test
    void eachEndpointOpensOnlyToItsRole() throws Exception {
        String[][] endpoints = { { "GET", "status", "operator" }, { "GET", "sessions", "operator" },
                { "DELETE", "sessions/0011223344556677", "operator" },
                { "GET", "ledger/export", "auditor" },
                // issue 11: the gate's operator actions (the role is asked before anything about the gate)
                { "POST", "approvals", "approver" }, { "GET", "operations", "operator" },
                { "POST", "operations/op-1/reconcile", "operator" },
                { "PUT", "sessions/0011223344556677/task-context", "operator" } };
        for (String[] e : endpoints) {
            String path = "iso-a/" + e[1];
            for (String token : List.of(AuthTenants.A_AGENT, AuthTenants.A_OTHER,
                    e[2].equals("operator") ? AuthTenants.A_AUDITOR : AuthTenants.A_OPERATOR)) {
                Answer r = send(e[0], path, token);
                assertEquals(403, r.status(), e[0] + " " + path + ": " + r.body());
                assertEquals("role_required", r.error());
                assertTrue(r.challenge().contains("insufficient_scope") && r.challenge().contains(e[2]), r.challenge());
            }
            Answer none = send(e[0], path, null);
            assertEquals(401, none.status());
            assertEquals("missing_credential", none.error());
            assertEquals("Bearer realm=\"cloakgate\"", none.challenge());
            // issue 15: the credential first; a tenant that does not exist refuses A's operator as a bad credential
            Answer unknown = send(e[0], "no-such-tenant/" + e[1], AuthTenants.A_OPERATOR);
            assertEquals(401, unknown.status());
            assertEquals("invalid_token", unknown.error());
        }
    }

    @Test
    void aLargeOrUnsizedBodyIsRefusedBeforeAnythingReadsIt() throws Exception {
        URI accept = admin.resolve("iso-a/pins/accept");
        HttpResponse<String> large = http.send(HttpRequest.newBuilder(accept)
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[300 * 1024])).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(413, large.statusCode(), large.body());
        assertEquals("too_large", Json.parse(large.body()).path("error").asText());
        HttpResponse<String> chunked = http.send(HttpRequest.newBuilder(accept)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(new byte[10])))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(411, chunked.statusCode(), chunked.body());
        assertEquals("length_required", Json.parse(chunked.body()).path("error").asText());
        // within the bound, the credential is asked for as everywhere
        HttpResponse<String> ok = http.send(HttpRequest.newBuilder(accept).POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, ok.statusCode(), ok.body());
    }

    private long ledgerSize(String tenant) {
        var ledger = gateway.ledger(tenant);
        ledger.flush();
        return ledger.size();
    }

    private List<JsonNode> entries(String tenant, long from, String kind) {
        return StoredEntries.of(gateway.ledger(tenant), from, kind);
    }
}
