package dev.cloakgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jose4j.jwt.JwtClaims;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 16: an OAuth 2.1 authorization server for the tests, on the JDK's HTTP server: RFC 8414 metadata (by path
 * insertion, its issuer has a path), dynamic client registration (RFC 7591, public clients), an authorization
 * endpoint that approves at once and redirects with a code, a token endpoint that checks PKCE S256 and makes the
 * RFC 8707 {@code resource} the token's {@code aud}, and its JWKS. Tokens are JWTs signed with a JDK-generated key
 * ({@link TestJwts}) for one subject, an e-mail address (which must never reach the gateway's log or ledger).
 * Every token issued is a line in {@code record} (client, resource, scope; never the token).
 */
public final class TestAuthorizationServer implements AutoCloseable {
    public static final String SUBJECT = "dana.reyes@example.com";
    private static final String REALM = "/realms/corp";
    private final HttpServer server;
    private final TestJwts key;
    private final Path record;
    private final Set<String> scopesSupported;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, ObjectNode> clients = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> codes = new ConcurrentHashMap<>();

    private TestAuthorizationServer(TestJwts key, Path record, Set<String> scopesSupported) throws IOException {
        this.key = key;
        this.record = record;
        this.scopesSupported = scopesSupported;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/.well-known/oauth-authorization-server" + REALM, ex -> json(ex, 200, metadata()));
        server.createContext(REALM + "/jwks", ex -> json(ex, 200, Json.obj(TestJwts.jwks(key))));
        server.createContext(REALM + "/register", this::register);
        server.createContext(REALM + "/authorize", this::authorize);
        server.createContext(REALM + "/token", this::token);
        server.start();
    }

    public static TestAuthorizationServer start(TestJwts key, Path record, Set<String> scopesSupported) throws IOException {
        return new TestAuthorizationServer(key, record, scopesSupported);
    }

    public String issuer() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + REALM;
    }

    private ObjectNode metadata() {
        ObjectNode m = Json.object();
        m.put("issuer", issuer());
        m.put("authorization_endpoint", issuer() + "/authorize");
        m.put("token_endpoint", issuer() + "/token");
        m.put("registration_endpoint", issuer() + "/register");
        m.put("jwks_uri", issuer() + "/jwks");
        m.putArray("response_types_supported").add("code");
        m.putArray("grant_types_supported").add("authorization_code");
        m.putArray("code_challenge_methods_supported").add("S256");
        m.putArray("token_endpoint_auth_methods_supported").add("none");
        scopesSupported.forEach(m.putArray("scopes_supported")::add);
        return m;
    }

    private void register(HttpExchange ex) throws IOException {
        JsonNode req = Json.MAPPER.readTree(body(ex));
        ObjectNode client = req.deepCopy();
        client.put("client_id", "client-" + token(8));
        client.put("client_id_issued_at", System.currentTimeMillis() / 1000);
        client.put("token_endpoint_auth_method", "none");
        clients.put(client.get("client_id").asText(), client);
        json(ex, 201, client);
    }

    /** Approves at once: the code goes to the registered redirect URI with the state. */
    private void authorize(HttpExchange ex) throws IOException {
        Map<String, String> q = form(ex.getRequestURI().getRawQuery());
        ObjectNode client = clients.get(q.getOrDefault("client_id", ""));
        String redirect = q.get("redirect_uri");
        boolean registered = client != null && client.path("redirect_uris").toString().contains("\"" + redirect + "\"");
        if (!registered || !"code".equals(q.get("response_type")) || !"S256".equals(q.get("code_challenge_method"))
                || q.get("code_challenge") == null) {
            json(ex, 400, Json.obj("{\"error\":\"invalid_request\"}"));
            return;
        }
        String code = token(16);
        codes.put(code, q);
        String location = redirect + (redirect.contains("?") ? "&" : "?") + "code=" + code
                + (q.get("state") == null ? "" : "&state=" + URLEncoder.encode(q.get("state"), StandardCharsets.UTF_8));
        ex.getResponseHeaders().add("Location", location);
        ex.sendResponseHeaders(302, -1);
        ex.close();
    }

    private void token(HttpExchange ex) throws IOException {
        Map<String, String> f = form(body(ex));
        Map<String, String> granted = "authorization_code".equals(f.get("grant_type")) ? codes.remove(f.getOrDefault("code", "")) : null;
        if (granted == null || !granted.get("client_id").equals(f.get("client_id"))
                || !granted.get("redirect_uri").equals(f.get("redirect_uri")) || f.get("code_verifier") == null
                || !s256(f.get("code_verifier")).equals(granted.get("code_challenge"))) {
            json(ex, 400, Json.obj("{\"error\":\"invalid_grant\"}"));
            return;
        }
        // RFC 8707: the resource of the token request, the one the code was granted for
        String resource = f.getOrDefault("resource", granted.get("resource"));
        if (resource == null || (granted.get("resource") != null && !granted.get("resource").equals(resource))) {
            json(ex, 400, Json.obj("{\"error\":\"invalid_target\"}"));
            return;
        }
        Set<String> scopes = new LinkedHashSet<>();
        for (String s : granted.getOrDefault("scope", "").split(" ")) {
            if (scopesSupported.contains(s)) {
                scopes.add(s);
            }
        }
        String scope = String.join(" ", scopes);
        JwtClaims claims = TestJwts.claims(issuer(), resource, SUBJECT);
        claims.setClaim("scope", scope);
        claims.setClaim("client_id", f.get("client_id"));
        ObjectNode line = Json.object();
        line.put("client_id", f.get("client_id"));
        line.put("resource", resource);
        line.put("scope", scope);
        Files.writeString(record, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ObjectNode out = Json.object();
        out.put("access_token", key.sign(claims));
        out.put("token_type", "Bearer");
        out.put("expires_in", 600);
        out.put("scope", scope);
        json(ex, 200, out);
    }

    /** A token of this server for {@code resource} with {@code scope}, as its token endpoint would issue it. */
    public static String mint(TestJwts key, String issuer, String resource, String scope) {
        JwtClaims claims = TestJwts.claims(issuer, resource, SUBJECT);
        claims.setClaim("scope", scope);
        return key.sign(claims);
    }

    private static String s256(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private String token(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static String body(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            return new String(in.readNBytes(65536), StandardCharsets.UTF_8);
        }
    }

    private static Map<String, String> form(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static void json(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] b = Json.write(body).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.getResponseHeaders().add("Cache-Control", "no-store");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    /** The tokens this server issued, as recorded (client, resource, scope). */
    public static List<JsonNode> issued(Path record) throws IOException {
        if (!Files.exists(record)) {
            return List.of();
        }
        return Files.readAllLines(record).stream().filter(l -> !l.isBlank()).map(Json::obj).map(n -> (JsonNode) n).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
