package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.AuthTenants;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.PlantSearch;
import dev.cloakgate.testing.Plants;
import dev.cloakgate.testing.TestJwts;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import dev.cloakgate.testing.Upstreams;

/**
 * Issue 10, identity and roles, over real HTTP: two tenants of one cluster (testing/AuthTenants), each with its own
 * principals, trusting one JWT issuer with an audience each. Tenant A's credentials and sessions open nothing of
 * tenant B, and are refused there exactly as made-up ones are (status, body, challenge); a session belongs to the
 * principal that opened it; a credential opens only the surface of its role; every bad JWT is refused, its reason
 * named in the gateway's log and never to the caller. A's planted values then appear nowhere B's client, the
 * gateway's log or B's ledger can show, and no credential appears in the log.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class AuthIsolationTest {
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"iso\",\"version\":\"1\"}}}";
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
    private static final String CHALLENGE_BAD = "Bearer realm=\"cloakgate\", error=\"invalid_token\"";

    @TestHTTPResource("/t/iso-a/mcp")
    URI a;

    @TestHTTPResource("/t/iso-b/mcp")
    URI b;

    @TestHTTPResource("/admin/t/iso-a/ledger/export")
    URI aExport;

    @TestHTTPResource("/admin/t/iso-b/ledger/export")
    URI bExport;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    /** Everything tenant B's endpoints answered in this test: searched for A's planted values. */
    private final StringBuilder bOutput = new StringBuilder();
    /** Every credential presented: none may reach the gateway's log. */
    private final List<String> credentials = new ArrayList<>(List.of(AuthTenants.A_AGENT, AuthTenants.A_OTHER,
            AuthTenants.A_AUDITOR, AuthTenants.B_AGENT, AuthTenants.B_AUDITOR));

    private record Answer(int status, String challenge, String retryAfter, String body) {
        JsonNode json() {
            return Json.parse(body);
        }

        String reason() {
            JsonNode j = json();
            return j.has("error") && j.get("error").isTextual() ? j.get("error").asText()
                    : j.path("error").path("data").path("reason").asText();
        }
    }

    @Test
    void isolationMatrix() throws Exception {
        TestJwts issuer = TestJwts.imported(System.getProperty("test.auth.jwt.key"));

        // tenant A's agent works and receives A's planted values: A has something to leak
        String aSession;
        try (McpHttpClient ca = new McpHttpClient(a, AuthTenants.A_AGENT)) {
            assertTrue(ca.initialize("2025-11-25", Json.object()).has("result"));
            ObjectNode planted = ca.request("tools/call", Json.obj("{\"name\":\"probe__text_content\",\"arguments\":{}}"));
            assertTrue(Plants.all().stream().anyMatch(v -> planted.toString().contains(v)), planted.toString());
            aSession = ca.sessionId();

            // what tenant B answers a made-up credential and a made-up session: the reference for every refusal below
            Answer madeUpToken = post(b, "made-up-token-0000000000000000", null, INIT);
            assertEquals(401, madeUpToken.status());
            assertEquals("invalid_token", madeUpToken.reason());
            assertEquals(CHALLENGE_BAD, madeUpToken.challenge());
            String randomSession = "0123456789abcdef0123456789abcdef";
            Answer madeUpSession = post(b, AuthTenants.B_AGENT, randomSession, LIST);
            assertEquals(404, madeUpSession.status());
            assertEquals("unknown_session", madeUpSession.reason());

            // 1. A's agent token on B: exactly a made-up token (no tenant oracle)
            sameAs(madeUpToken, post(b, AuthTenants.A_AGENT, null, INIT), "A's agent token on B");
            sameAs(madeUpToken, post(b, AuthTenants.A_AGENT, aSession, LIST), "A's token and A's session on B");
            String aJwt = issuer.sign(TestJwts.claims(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE, AuthTenants.A_SUBJECT));
            credentials.add(aJwt);
            int before = logCount("iso-b refused a caller: audience_mismatch");
            sameAs(madeUpToken, post(b, aJwt, null, INIT), "A's JWT on B");
            awaitLog("iso-b refused a caller: audience_mismatch", before);

            // 2. A's session id on B, with B's own valid token: exactly a made-up session, on every method
            sameAs(madeUpSession, post(b, AuthTenants.B_AGENT, aSession, LIST), "A's session on B (POST)");
            sameAs(send(b, "GET", AuthTenants.B_AGENT, randomSession, null), send(b, "GET", AuthTenants.B_AGENT, aSession, null),
                    "A's session on B (GET)");
            sameAs(send(b, "DELETE", AuthTenants.B_AGENT, randomSession, null),
                    send(b, "DELETE", AuthTenants.B_AGENT, aSession, null), "A's session on B (DELETE)");

            // 3. A's session id with another principal of A: as if it did not exist, and it is not ended by the attempt
            Answer madeUpOnA = post(a, AuthTenants.A_OTHER, randomSession, LIST);
            assertEquals(404, madeUpOnA.status());
            sameAs(madeUpOnA, post(a, AuthTenants.A_OTHER, aSession, LIST), "another A principal on A's session (POST)");
            sameAs(send(a, "GET", AuthTenants.A_OTHER, randomSession, null), send(a, "GET", AuthTenants.A_OTHER, aSession, null),
                    "another A principal on A's session (GET)");
            sameAs(send(a, "DELETE", AuthTenants.A_OTHER, randomSession, null),
                    send(a, "DELETE", AuthTenants.A_OTHER, aSession, null), "another A principal on A's session (DELETE)");
            String aSaJwt = issuer.sign(TestJwts.claims(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE, AuthTenants.A_SUBJECT));
            sameAs(madeUpOnA, post(a, aSaJwt, aSession, LIST), "A's service account on A's agent's session");
            assertTrue(ca.request("tools/list", Json.object()).has("result"), "A's own session still works for its principal");
        }

        // 4. an auditor token on the MCP endpoint, 5. an agent token on the ledger export
        Answer auditorOnMcp = post(a, AuthTenants.A_AUDITOR, null, INIT);
        assertEquals(403, auditorOnMcp.status());
        assertEquals("role_required", auditorOnMcp.reason());
        assertTrue(auditorOnMcp.challenge().contains("insufficient_scope"), auditorOnMcp.challenge());
        Answer agentOnExport = send(aExport, "GET", AuthTenants.A_AGENT, null, null);
        assertEquals(403, agentOnExport.status());
        assertEquals("role_required", agentOnExport.reason());
        Answer madeUpOnExport = send(bExport, "GET", "made-up-token-0000000000000000", null, null);
        assertEquals(401, madeUpOnExport.status());
        sameAs(madeUpOnExport, send(bExport, "GET", AuthTenants.A_AUDITOR, null, null), "A's auditor on B's export");
        HttpResponse<byte[]> export = http.send(HttpRequest.newBuilder(aExport).header("Authorization", "Bearer "
                + AuthTenants.A_AUDITOR).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, export.statusCode(), "A's auditor exports A's ledger");
        Answer none = post(a, null, null, INIT);
        assertEquals(401, none.status());
        assertEquals("missing_credential", none.reason());
        assertEquals("Bearer realm=\"cloakgate\"", none.challenge(), "no error code when no credential was sent (RFC 6750)");

        // 6-10. JWTs that must not open tenant A, each refused as a bad credential, its reason only in the log
        Answer madeUpOnAInit = post(a, "made-up-token-0000000000000000", null, INIT);
        TestJwts rogue = TestJwts.generate("rogue-key");
        Map<String, String> badJwts = new java.util.LinkedHashMap<>();
        badJwts.put("token_expired", issuer.sign(TestJwts.expired(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE,
                AuthTenants.A_SUBJECT, 10)));
        badJwts.put("issuer_untrusted", issuer.sign(TestJwts.claims("https://issuer.test/elsewhere", AuthTenants.A_AUDIENCE,
                AuthTenants.A_SUBJECT)));
        badJwts.put("audience_mismatch", issuer.sign(TestJwts.claims(AuthTenants.ISSUER, "kubernetes", AuthTenants.A_SUBJECT)));
        badJwts.put("key_unknown", rogue.sign(TestJwts.claims(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE, AuthTenants.A_SUBJECT)));
        badJwts.put("signature_invalid", rogue.sign(TestJwts.claims(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE,
                AuthTenants.A_SUBJECT), issuer.kid()));
        badJwts.put("algorithm_refused", TestJwts.unsigned(TestJwts.claims(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE,
                AuthTenants.A_SUBJECT), issuer.kid()));
        badJwts.put("unknown_subject", issuer.sign(TestJwts.claims(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE,
                AuthTenants.B_SUBJECT)));
        for (Map.Entry<String, String> bad : badJwts.entrySet()) {
            credentials.add(bad.getValue());
            int seen = logCount("iso-a refused a caller: " + bad.getKey());
            sameAs(madeUpOnAInit, post(a, bad.getValue(), null, INIT), bad.getKey());
            awaitLog("iso-a refused a caller: " + bad.getKey(), seen);
        }
        // ...while A's service account's own token opens A
        String aSaJwt = issuer.sign(TestJwts.claims(AuthTenants.ISSUER, AuthTenants.A_AUDIENCE, AuthTenants.A_SUBJECT));
        credentials.add(aSaJwt);
        try (McpHttpClient sa = new McpHttpClient(a, aSaJwt)) {
            assertTrue(sa.initialize("2025-11-25", Json.object()).has("result"));
            assertTrue(sa.request("tools/call", Json.obj("{\"name\":\"probe__surfaces\",\"arguments\":{}}")).has("result"));
        }

        // B's own agent works too; everything B answered joins the search
        try (McpHttpClient cb = new McpHttpClient(b, AuthTenants.B_AGENT)) {
            bOutput.append(Json.write(cb.initialize("2025-11-25", Json.object())));
            bOutput.append(Json.write(cb.request("tools/list", Json.object())));
            bOutput.append(Json.write(cb.request("tools/call", Json.obj("{\"name\":\"probe__echo\",\"arguments\":{\"text\":\"b\"}}"))));
        }
        PlantSearch.assertNone("what tenant B answered", bOutput.toString().getBytes(StandardCharsets.UTF_8));
        byte[] log = Files.readAllBytes(Path.of(System.getProperty("test.gateway.log")));
        PlantSearch.assertNone("the gateway's log", log);
        String logText = new String(log, StandardCharsets.UTF_8);
        for (String c : credentials) {
            assertFalse(logText.contains(c), "a credential in the gateway's log: " + c.substring(0, 12) + "...");
        }
        for (String c : credentials) {
            // a JWT's signature alone is the unguessable part
            String tail = c.contains(".") ? c.substring(c.lastIndexOf('.') + 1) : c;
            assertTrue(tail.isEmpty() || !logText.contains(tail), "a credential's signature in the gateway's log");
        }
        Path ledgers = Path.of(System.getProperty("test.data.dir")).resolve("ledger");
        for (String file : List.of("iso-b.db", "iso-b.db-wal")) {
            if (Files.exists(ledgers.resolve(file))) {
                PlantSearch.assertNone("B's ledger " + file, Files.readAllBytes(ledgers.resolve(file)));
            }
        }
    }

    @Test
    void aPrincipalSeesOnlyItsToolsAndAnotherIsRefusedAsAnUnknownTool() {
        List<String> all = new ArrayList<>();
        try (McpHttpClient full = new McpHttpClient(a, AuthTenants.A_AGENT)) {
            full.initialize("2025-11-25", Json.object());
            full.request("tools/list", Json.object()).path("result").path("tools").forEach(t -> all.add(t.path("name").asText()));
        }
        assertTrue(all.size() > 5 && all.contains(AuthTenants.A_OTHER_TOOL) && all.contains("probe__text_content"), all.toString());
        try (McpHttpClient other = new McpHttpClient(a, AuthTenants.A_OTHER)) {
            other.initialize("2025-11-25", Json.object());
            List<String> seen = new ArrayList<>();
            other.request("tools/list", Json.object()).path("result").path("tools").forEach(t -> seen.add(t.path("name").asText()));
            assertEquals(List.of(AuthTenants.A_OTHER_TOOL), seen);
            assertTrue(other.request("tools/call", Json.obj("{\"name\":\"" + AuthTenants.A_OTHER_TOOL + "\",\"arguments\":{}}"))
                    .has("result"));
            JsonNode hidden = other.request("tools/call", Json.obj("{\"name\":\"probe__text_content\",\"arguments\":{}}")).path("error");
            JsonNode unknown = other.request("tools/call", Json.obj("{\"name\":\"nope__text_content\",\"arguments\":{}}")).path("error");
            assertEquals("unknown_tool", hidden.path("data").path("reason").asText(), hidden.toString());
            assertEquals(unknown.path("code"), hidden.path("code"));
            assertEquals(unknown.path("data"), hidden.path("data"));
            assertEquals(unknown.path("message").asText().replace("nope__", "probe__"), hidden.path("message").asText());
            assertFalse(hidden.toString().contains(Plants.all().get(0)));
        }
    }

    @Test
    void perPrincipalLimitsRefuseCallsOverTheRateAndSessionsOverTheCount() throws Exception {
        try (McpHttpClient rated = new McpHttpClient(a, AuthTenants.A_RATE)) {
            assertTrue(rated.initialize("2025-11-25", Json.object()).has("result"));
            // 3 a minute: initialize was one; within a handful more the limit answers (a refill every 20 s at most)
            McpHttpClient.Raw refused = null;
            for (int i = 0; i < 12 && refused == null; i++) {
                McpHttpClient.Raw r = rated.post(LIST.replace("\"id\":2", "\"id\":" + (10 + i)));
                if (r.status() == 429) {
                    refused = r;
                } else {
                    assertEquals(200, r.status(), r.body());
                }
            }
            assertNotNull(refused, "never limited");
            assertEquals("principal_rate_limited", refused.json().path("error").path("data").path("reason").asText(), refused.body());
            assertTrue(refused.json().path("error").path("data").path("retryAfterSeconds").asInt() >= 1, refused.body());
            // another principal of the same tenant is not held back by it
            try (McpHttpClient other = new McpHttpClient(a, AuthTenants.A_AGENT)) {
                assertTrue(other.initialize("2025-11-25", Json.object()).has("result"));
            }
        }
        McpHttpClient first = new McpHttpClient(a, AuthTenants.A_SESSIONS);
        McpHttpClient second = new McpHttpClient(a, AuthTenants.A_SESSIONS);
        try {
            assertTrue(first.initialize("2025-11-25", Json.object()).has("result"));
            assertTrue(second.initialize("2025-11-25", Json.object()).has("result"));
            Answer third = post(a, AuthTenants.A_SESSIONS, null, INIT);
            assertEquals(429, third.status(), third.body());
            assertEquals("principal_session_limit", third.reason());
            assertNotNull(third.retryAfter());
            assertEquals(200, first.delete(), "ending a session frees its slot");
            Answer again = post(a, AuthTenants.A_SESSIONS, null, INIT);
            assertEquals(200, again.status(), again.body());
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void theTypescriptSdkClientSendsABearerHeaderThroughRequestInit() {
        Map.Entry<Integer, String> refused = NodeFixtures.run(Duration.ofSeconds(60), NodeFixtures.INDEPENDENT_CLIENT.toString(),
                b.toString());
        assertNotEquals(0, refused.getKey(), "without a credential the SDK client is refused: " + refused.getValue());
        Map.Entry<Integer, String> run = NodeFixtures.run(Duration.ofSeconds(60), NodeFixtures.INDEPENDENT_CLIENT.toString(),
                "--bearer", AuthTenants.B_AGENT, b.toString(), "probe__echo", "{\"text\":\"through the gateway\"}");
        assertEquals(0, run.getKey(), run.getValue());
        JsonNode out = Json.parse(run.getValue().trim());
        assertEquals("cloakgate", out.path("serverInfo").path("name").asText());
        assertEquals("beta:through the gateway", out.path("callResult").path("content").path(0).path("text").asText(), out.toString());
        PlantSearch.assertNone("the SDK client on tenant B", run.getValue().getBytes(StandardCharsets.UTF_8));
    }

    // ---- helpers ----

    private void sameAs(Answer expected, Answer actual, String what) {
        assertEquals(expected.status(), actual.status(), what + ": " + actual.body());
        assertEquals(expected.body(), actual.body(), what);
        assertEquals(expected.challenge(), actual.challenge(), what);
    }

    private Answer post(URI url, String token, String session, String body) throws IOException, InterruptedException {
        return send(url, "POST", token, session, body);
    }

    private Answer send(URI url, String method, String token, String session, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json, text/event-stream");
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        if (session != null) {
            r.header("Mcp-Session-Id", session);
        }
        if (body != null) {
            r.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            r.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> resp = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
        Answer answer = new Answer(resp.statusCode(), resp.headers().firstValue("WWW-Authenticate").orElse(null),
                resp.headers().firstValue("Retry-After").orElse(null), resp.body());
        if (url.equals(b) || url.equals(bExport)) {
            bOutput.append(resp.statusCode()).append(' ').append(answer.challenge()).append(' ').append(resp.body()).append('\n');
        }
        return answer;
    }

    private static int logCount(String fragment) throws IOException {
        String log = Files.readString(Path.of(System.getProperty("test.gateway.log")), StandardCharsets.UTF_8);
        int n = 0;
        for (int i = log.indexOf(fragment); i >= 0; i = log.indexOf(fragment, i + 1)) {
            n++;
        }
        return n;
    }

    /** The refusal's internal reason is logged (at debug, which the test resource writes to a file). */
    private static void awaitLog(String fragment, int before) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (logCount(fragment) <= before && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertTrue(logCount(fragment) > before, "not logged: " + fragment);
    }
}
