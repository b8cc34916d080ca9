package dev.cloakgate.upstream.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 16: the gateway's OAuth client against a small authorization server and protected resource metadata
 * served over real HTTP by the test (the JDK's server): discovery order, the resource check, the client
 * credentials grant with the resource indicator, step-up and its limit.
 */
class UpstreamAuthorizerTest {
    private HttpServer server;
    private String base;
    private final List<String> requests = new ArrayList<>();
    private final List<Map<String, String>> tokenForms = new ArrayList<>();
    private final List<String> tokenAuthorizations = new ArrayList<>();
    private volatile String prmResource;
    private volatile String issuerOverride;
    /** The authorization server the protected resource metadata names: {@code /as}, or {@code /as2}. */
    private volatile String prmServer = "/as";
    private final List<Map<String, String>> idpForms = new ArrayList<>();
    private volatile String idpIssuedType = IdentityAssertionExchange.ID_JAG;
    private Path secret;
    @TempDir
    Path tmp;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        server.createContext("/", this::handle);
        server.start();
        secret = Files.createTempFile("client", ".secret");
        Files.writeString(secret, "s3cret\n");
    }

    @AfterEach
    void stop() throws IOException {
        server.stop(0);
        Files.deleteIfExists(secret);
    }

    private void handle(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        synchronized (requests) {
            requests.add(x.getRequestMethod() + " " + path);
        }
        String body;
        int status = 200;
        if (path.equals("/.well-known/oauth-protected-resource/mcp")) {
            body = "{\"resource\":\"" + (prmResource != null ? prmResource : base + "/mcp")
                    + "\",\"authorization_servers\":[\"" + base + prmServer + "\"],\"scopes_supported\":[\"a\",\"b\"]}";
        } else if (path.equals("/.well-known/oauth-authorization-server/as")
                || path.equals("/.well-known/oauth-authorization-server/as2")) {
            String as = path.substring(path.lastIndexOf('/'));
            body = "{\"issuer\":\"" + (issuerOverride != null ? issuerOverride : base + as) + "\",\"token_endpoint\":\""
                    + base + as + "/token\",\"authorization_endpoint\":\"" + base + as + "/authorize\","
                    + "\"token_endpoint_auth_methods_supported\":[\"client_secret_basic\"]}";
        } else if (path.equals("/idp/token")) {
            idpForms.add(form(x));
            body = "{\"access_token\":\"jag-" + idpForms.size() + "\",\"issued_token_type\":\"" + idpIssuedType
                    + "\",\"token_type\":\"N_A\"}";
        } else if ((path.equals("/as/token") || path.equals("/as2/token")) && spentRefresh.contains(peekRefresh(x))) {
            tokenForms.add(form(x));
            status = 400;
            body = "{\"error\":\"invalid_grant\"}";
        } else if (path.equals("/as/token") || path.equals("/as2/token")) {
            Map<String, String> form = form(x);
            tokenForms.add(form);
            tokenAuthorizations.add(x.getRequestHeaders().getFirst("Authorization"));
            body = "{\"access_token\":\"tok-" + tokenForms.size() + "\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
                    + "\"scope\":\"" + form.getOrDefault("scope", "") + "\"}";
        } else {
            status = 404;
            body = "{}";
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    /** Issue 17: refresh tokens the server no longer takes (rotated by another replica's refresh). */
    private final java.util.Set<String> spentRefresh = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Map<HttpExchange, String> bodies = new java.util.concurrent.ConcurrentHashMap<>();

    /** The request's refresh_token (the body is kept for {@link #form}). */
    private String peekRefresh(HttpExchange x) throws IOException {
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        bodies.put(x, body);
        for (String kv : body.split("&")) {
            if (kv.startsWith("refresh_token=")) {
                return URLDecoder.decode(kv.substring("refresh_token=".length()), StandardCharsets.UTF_8);
            }
        }
        return "";
    }

    private Map<String, String> form(HttpExchange x) throws IOException {
        Map<String, String> form = new LinkedHashMap<>();
        String read = bodies.remove(x);
        for (String kv : (read != null ? read : new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)).split("&")) {
            String[] p = kv.split("=", 2);
            form.put(URLDecoder.decode(p[0], StandardCharsets.UTF_8), URLDecoder.decode(p[1], StandardCharsets.UTF_8));
        }
        return form;
    }

    /** A cross-app access client whose ID token file holds {@code idToken}. */
    private UpstreamAuthorizer crossApp(String idToken) throws IOException {
        Path file = Files.writeString(tmp.resolve("id.token"), idToken);
        return authorizer(new OAuthSettings("acme", "crm", OAuthSettings.Grant.CROSS_APP_ACCESS, "gw", null, secret,
                null, null, null, new OAuthSettings.CrossApp(file, base + "/idp/token", "gw-at-idp")), null);
    }

    @Test
    void crossAppAccessExchangesTheIdTokenAtTheIdentityProviderAndPresentsTheGrant() throws Exception {
        UpstreamAuthorizer a = crossApp("header.id-token.sig\n");
        a.challenged(401, "Bearer scope=\"a\"", null);
        assertEquals("tok-1", a.bearer());
        Map<String, String> exchange = idpForms.get(0);
        assertEquals(IdentityAssertionExchange.TOKEN_EXCHANGE, exchange.get("grant_type"));
        assertEquals("header.id-token.sig", exchange.get("subject_token"), "the file's token, read at the exchange");
        assertEquals(IdentityAssertionExchange.ID_TOKEN, exchange.get("subject_token_type"));
        assertEquals(IdentityAssertionExchange.ID_JAG, exchange.get("requested_token_type"));
        assertEquals(base + "/as", exchange.get("audience"), "the grant names the upstream's authorization server");
        assertEquals(base + "/mcp", exchange.get("resource"));
        assertEquals("gw-at-idp", exchange.get("client_id"));
        Map<String, String> grant = tokenForms.get(0);
        assertEquals("urn:ietf:params:oauth:grant-type:jwt-bearer", grant.get("grant_type"));
        assertEquals("jag-1", grant.get("assertion"));
        assertEquals(base + "/mcp", grant.get("resource"));
        assertTrue(!grant.containsValue("header.id-token.sig"), "the ID token goes to the identity provider only");
        assertEquals("Basic " + Base64.getEncoder().encodeToString("gw:s3cret".getBytes(StandardCharsets.UTF_8)),
                tokenAuthorizations.get(0));
    }

    @Test
    void crossAppAccessRefusesAnAnswerThatIsNoIdentityAssertionGrant() throws Exception {
        idpIssuedType = "urn:ietf:params:oauth:token-type:access_token";
        UpstreamAuthorizer a = crossApp("header.id-token.sig");
        OAuthFailure e = assertThrows(OAuthFailure.class, () -> a.challenged(401, "Bearer", null));
        assertEquals(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, e.code());
        assertTrue(tokenForms.isEmpty(), "nothing was presented to the authorization server");
    }

    @Test
    void aCodeIsRedeemedOnlyAtTheServerTheAuthorizationWasSentTo() throws Exception {
        ConnectStates states = new ConnectStates(Clock.systemUTC(), Duration.ofMinutes(10));
        AuthHttp http = new AuthHttp(Duration.ofSeconds(10));
        UpstreamAuthorizer a = new UpstreamAuthorizer(new OAuthSettings("acme", "crm", OAuthSettings.Grant.AUTHORIZATION_CODE,
                "gw", null, secret, null, null, null, null), URI.create(base + "/mcp"), new Discovery(http),
                new ClientRegistration(http, URI.create("https://gw.example")), new TokenEndpoint(http, Clock.systemUTC()),
                new IdentityAssertionExchange(http), states, TokenListener.NONE, Clock.systemUTC(), null);
        String first = state(a.connect());
        // RFC 9207: a redirect naming another issuer than the one asked is refused, and nothing is redeemed
        ConnectStates.Pending p1 = states.take(first);
        assertEquals(base + "/as", p1.issuer());
        assertThrows(OAuthFailure.class, () -> a.complete(p1, "code-1", "https://evil.example"));
        // the upstream names another server meanwhile: an authorization sent to the first is not redeemed at the second
        String second = state(a.connect());
        prmServer = "/as2";
        String third = state(a.connect());
        OAuthFailure mixUp = assertThrows(OAuthFailure.class, () -> a.complete(states.take(second), "code-2", null));
        assertEquals(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, mixUp.code());
        assertTrue(tokenForms.isEmpty(), "no code and no PKCE verifier went to any token endpoint");
        // the second server's own authorization is redeemed there
        a.complete(states.take(third), "code-3", base + "/as2");
        assertEquals("code-3", tokenForms.get(0).get("code"));
        assertTrue(requests.contains("POST /as2/token") && !requests.contains("POST /as/token"), requests::toString);
        assertEquals("tok-1", a.bearer());
    }

    private static String state(UpstreamAuthorizer.ConnectStart s) {
        for (String kv : s.authorizationUrl().getRawQuery().split("&")) {
            if (kv.startsWith("state=")) {
                return URLDecoder.decode(kv.substring(6), StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no state in " + s.authorizationUrl());
    }

    private UpstreamAuthorizer authorizer() {
        return authorizer(new OAuthSettings("acme", "crm", OAuthSettings.Grant.CLIENT_CREDENTIALS, "gw", null, secret,
                null, null, null, null), null);
    }

    private UpstreamAuthorizer authorizer(OAuthSettings s, TokenStore store) {
        AuthHttp http = new AuthHttp(Duration.ofSeconds(10));
        return new UpstreamAuthorizer(s, URI.create(base + "/mcp"), new Discovery(http),
                new ClientRegistration(http, null), new TokenEndpoint(http, Clock.systemUTC()), new IdentityAssertionExchange(http),
                new ConnectStates(Clock.systemUTC(), Duration.ofMinutes(10)), TokenListener.NONE, Clock.systemUTC(), store);
    }

    @Test
    void aFirst401GetsAClientCredentialsTokenForTheResource() throws Exception {
        UpstreamAuthorizer a = authorizer();
        assertNull(a.bearer());
        a.challenged(401, "Bearer scope=\"a\"", null);
        assertEquals("tok-1", a.bearer());
        Map<String, String> form = tokenForms.get(0);
        assertEquals("client_credentials", form.get("grant_type"));
        assertEquals(base + "/mcp", form.get("resource"), "RFC 8707: the token is asked for this resource");
        assertEquals("a", form.get("scope"), "the challenge's scope first");
        assertEquals("Basic " + Base64.getEncoder().encodeToString("gw:s3cret".getBytes(StandardCharsets.UTF_8)),
                tokenAuthorizations.get(0));
        // discovery: the path-inserted metadata URL, then the issuer's RFC 8414 URL (no resource_metadata given)
        assertEquals(List.of("GET /.well-known/oauth-protected-resource/mcp",
                "GET /.well-known/oauth-authorization-server/as", "POST /as/token"), requests);
        assertEquals("connected", a.status().state());
    }

    @Test
    void aStoredConnectionOutlivesARestartThroughItsRefreshToken() throws Exception {
        Path data = Files.createTempDirectory("oauth-store");
        TokenStore store = new TokenStore(data.resolve("upstream-oauth"), StoreKey.generatedUnder(data), null);
        store.save("acme", "crm", new TokenStore.Saved(new Client("dyn-1", "dyn-secret", "client_secret_post", "dynamic"),
                base + "/as", "stored-refresh", "a"));
        OAuthSettings s = new OAuthSettings("acme", "crm", OAuthSettings.Grant.AUTHORIZATION_CODE, null, null, null,
                null, null, null, null);
        UpstreamAuthorizer a = authorizer(s, store);
        a.challenged(401, "Bearer", null);
        assertEquals("tok-1", a.bearer());
        Map<String, String> form = tokenForms.get(0);
        assertEquals("refresh_token", form.get("grant_type"));
        assertEquals("stored-refresh", form.get("refresh_token"));
        assertEquals("dyn-1", form.get("client_id"), "the client registered before the restart, not a new one");
        assertEquals("dyn-secret", form.get("client_secret"));
        assertEquals(base + "/mcp", form.get("resource"));
        // the stored refresh token is kept (the server issued no new one)
        assertEquals("stored-refresh", store.load("acme", "crm").saved().refreshToken());
    }

    // ---- issue 17: a connection the replicas share ----

    @Test
    void aConnectionAnotherReplicaStoredIsTakenUpOnTheNext401() throws Exception {
        Path data = Files.createTempDirectory("oauth-store");
        TokenStore shared = new TokenStore(data.resolve("upstream-oauth"), StoreKey.generatedUnder(data), null);
        OAuthSettings s = new OAuthSettings("acme", "crm", OAuthSettings.Grant.AUTHORIZATION_CODE, null, null, null,
                null, null, null, null);
        UpstreamAuthorizer here = authorizer(s, shared); // started before anyone connected the upstream
        assertThrows(OAuthFailure.class, () -> here.challenged(401, "Bearer", null), "not connected yet");
        // an operator connects it through another replica, which stores the connection
        shared.save("acme", "crm", new TokenStore.Saved(new Client("dyn-9", "dyn-secret", "client_secret_post", "dynamic"),
                base + "/as", "refresh-from-r1", "a"));
        here.challenged(401, "Bearer", null);
        assertEquals("tok-1", here.bearer());
        assertEquals("refresh-from-r1", tokenForms.get(0).get("refresh_token"));
        assertEquals("dyn-9", tokenForms.get(0).get("client_id"), "with the client that obtained the refresh token");
    }

    @Test
    void aRefreshTokenAnotherReplicaRotatedReplacesTheSpentOneAndADeadOneIsSentOnce() throws Exception {
        Path data = Files.createTempDirectory("oauth-store");
        TokenStore shared = new TokenStore(data.resolve("upstream-oauth"), StoreKey.generatedUnder(data), null);
        Client dyn = new Client("dyn-1", "dyn-secret", "client_secret_post", "dynamic");
        shared.save("acme", "crm", new TokenStore.Saved(dyn, base + "/as", "r-old", "a"));
        OAuthSettings s = new OAuthSettings("acme", "crm", OAuthSettings.Grant.AUTHORIZATION_CODE, null, null, null,
                null, null, null, null);
        UpstreamAuthorizer here = authorizer(s, shared); // read r-old at its start
        // meanwhile another replica refreshed: the server rotated r-old into r-new, which that replica stored
        spentRefresh.add("r-old");
        shared.save("acme", "crm", new TokenStore.Saved(dyn, base + "/as", "r-new", "a"));
        here.challenged(401, "Bearer", null);
        assertEquals(List.of("r-old", "r-new"), tokenForms.stream().map(f -> f.get("refresh_token")).toList());
        assertEquals("tok-2", here.bearer());

        // a store holding only a spent token: tried once, then an operator must connect (no loop of dead refreshes)
        spentRefresh.add("r-dead");
        shared.save("acme", "crm", new TokenStore.Saved(dyn, base + "/as", "r-dead", "a"));
        UpstreamAuthorizer other = authorizer(s, shared);
        int before = tokenForms.size();
        assertThrows(OAuthFailure.class, () -> other.challenged(401, "Bearer", null));
        assertThrows(OAuthFailure.class, () -> other.challenged(401, "Bearer", null));
        assertEquals(1, tokenForms.size() - before, "the dead refresh token went to the server once");
    }

    @Test
    void aStoredRefreshTokenIsNeverSentToAnotherAuthorizationServer() throws Exception {
        Path data = Files.createTempDirectory("oauth-store");
        TokenStore store = new TokenStore(data.resolve("upstream-oauth"), StoreKey.generatedUnder(data), null);
        store.save("acme", "crm", new TokenStore.Saved(new Client("dyn-1", null, "none", "dynamic"),
                "https://old-as.example", "stored-refresh", "a"));
        OAuthSettings s = new OAuthSettings("acme", "crm", OAuthSettings.Grant.AUTHORIZATION_CODE, "gw", null, null,
                null, null, null, null);
        UpstreamAuthorizer a = authorizer(s, store);
        OAuthFailure f = assertThrows(OAuthFailure.class, () -> a.challenged(401, "Bearer", null));
        assertEquals(OAuthFailure.Code.UPSTREAM_AUTH_REQUIRED, f.code());
        assertTrue(tokenForms.isEmpty(), "the refresh token went to no token endpoint");
    }

    @Test
    void withoutAScopeInTheChallengeScopesSupportedIsAskedFor() throws Exception {
        UpstreamAuthorizer a = authorizer();
        a.challenged(401, "Bearer", null);
        assertEquals("a b", tokenForms.get(0).get("scope"));
    }

    @Test
    void stepUpAsksForTheUnionAndStopsAtTheLimit() throws Exception {
        UpstreamAuthorizer a = authorizer();
        a.challenged(401, "Bearer scope=\"a\"", null);
        a.challenged(403, "Bearer error=\"insufficient_scope\", scope=\"b\"", a.bearer());
        assertEquals("a b", tokenForms.get(1).get("scope"));
        a.challenged(403, "Bearer error=\"insufficient_scope\", scope=\"c\"", a.bearer());
        OAuthFailure f = assertThrows(OAuthFailure.class,
                () -> a.challenged(403, "Bearer error=\"insufficient_scope\", scope=\"d\"", a.bearer()));
        assertEquals(OAuthFailure.Code.UPSTREAM_SCOPE_REFUSED, f.code());
        assertEquals(1 + UpstreamAuthorizer.STEP_UP_LIMIT, tokenForms.size());
    }

    @Test
    void metadataNamingAnotherResourceIsRefusedBeforeAnyTokenRequest() {
        prmResource = "https://other.example/mcp";
        OAuthFailure f = assertThrows(OAuthFailure.class, () -> authorizer().challenged(401, "Bearer", null));
        assertEquals(OAuthFailure.Code.UPSTREAM_RESOURCE_MISMATCH, f.code());
        assertTrue(tokenForms.isEmpty());
    }

    @Test
    void metadataOfAnotherIssuerIsRefused() {
        issuerOverride = "https://evil.example/as";
        OAuthFailure f = assertThrows(OAuthFailure.class, () -> authorizer().challenged(401, "Bearer", null));
        assertEquals(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, f.code());
        assertTrue(tokenForms.isEmpty());
    }

    @Test
    void aResourceMetadataUrlThatIsNotHttpsNorLoopbackIsRefused() {
        OAuthFailure f = assertThrows(OAuthFailure.class, () -> authorizer().challenged(401,
                "Bearer resource_metadata=\"http://metadata.example/.well-known/oauth-protected-resource\"", null));
        assertEquals(OAuthFailure.Code.UPSTREAM_AUTH_INSECURE_URL, f.code());
        assertTrue(requests.isEmpty(), "nothing was fetched");
    }
}
