package dev.cloakgate.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 10, identity and roles: two tenants with credentials for the isolation matrix (acceptance/AuthIsolationTest).
 * Tenant {@code iso-a} fronts the leak probe without cloaking (so its agents receive the planted values that must
 * never reach tenant {@code iso-b}); both trust one JWT issuer (a key of the test's own, its JWKS served over real
 * HTTP) with an audience each, as two tenants of one cluster would.
 */
public final class AuthTenants {
    public static final String ISSUER = "https://issuer.test/cluster";
    public static final String A_AUDIENCE = "cloakgate-iso-a";
    public static final String B_AUDIENCE = "cloakgate-iso-b";
    public static final String A_SUBJECT = "system:serviceaccount:team-a:billing-agent";
    public static final String B_SUBJECT = "system:serviceaccount:team-b:billing-agent";
    public static final String A_AGENT = "iso-a-agent-7d1e4b9c2a6f8e3d5c0b";
    /** Another agent of A, allowed one tool only. */
    public static final String A_OTHER = "iso-a-other-3f8a1c6e9b2d7f4a0e5c";
    public static final String A_AUDITOR = "iso-a-auditor-9c4e2f7a1b8d3e6c0a5f";
    /** An agent of A limited to 3 calls a minute. */
    public static final String A_RATE = "iso-a-rate-5b0d8e3a6c1f9b4e7d2a";
    /** An agent of A limited to 2 sessions. */
    public static final String A_SESSIONS = "iso-a-sessions-1e6c9f2b5a8d0c3f7b4e";
    public static final String B_AGENT = "iso-b-agent-8e2b5d0f3c6a9e1b4d7c";
    public static final String B_AUDITOR = "iso-b-auditor-2c7f0a5d8b1e4c9a6f3d";
    /** The one tool {@link #A_OTHER} may see and call. */
    public static final String A_OTHER_TOOL = "probe__surfaces";

    private AuthTenants() {
    }

    /**
     * Writes the tenants and starts the JWKS server; the issuer's key goes to {@code test.auth.jwt.key} (see
     * {@link TestJwts#imported}).
     *
     * @return what stops the JWKS server
     */
    public static AutoCloseable write(Path tenants, URI leakProbe, URI probe) throws IOException {
        TestJwts key = TestJwts.generate("iso-key-1");
        byte[] jwks = TestJwts.jwks(key).getBytes(StandardCharsets.UTF_8);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/openid/v1/jwks", ex -> {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, jwks.length);
            ex.getResponseBody().write(jwks);
            ex.close();
        });
        server.start();
        String jwksUrl = "http://127.0.0.1:" + server.getAddress().getPort() + "/openid/v1/jwks";
        System.setProperty("test.auth.jwt.key", key.exported());

        ObjectNode a = auth(jwksUrl, A_AUDIENCE);
        ObjectNode ap = (ObjectNode) a.get("principals");
        principal(ap, "a-agent", "agent").putArray("tokens_sha256").add(Upstreams.sha256(A_AGENT));
        ObjectNode other = principal(ap, "a-other", "agent");
        other.putArray("tokens_sha256").add(Upstreams.sha256(A_OTHER));
        other.putArray("tools").add(A_OTHER_TOOL);
        principal(ap, "a-auditor", "auditor").putArray("tokens_sha256").add(Upstreams.sha256(A_AUDITOR));
        ObjectNode rate = principal(ap, "a-rate", "agent");
        rate.putArray("tokens_sha256").add(Upstreams.sha256(A_RATE));
        rate.putObject("limits").put("calls_per_minute", 3);
        ObjectNode sessions = principal(ap, "a-sessions", "agent");
        sessions.putArray("tokens_sha256").add(Upstreams.sha256(A_SESSIONS));
        sessions.putObject("limits").put("sessions", 2);
        principal(ap, "a-sa", "agent").putObject("jwt").put("subject", A_SUBJECT);
        Upstreams.tenant(tenants, "iso-a", "prefix", Map.of("probe", Upstreams.http(leakProbe.toString())),
                Map.of("sanitize", false, "auth", a));

        ObjectNode b = auth(jwksUrl, B_AUDIENCE);
        ObjectNode bp = (ObjectNode) b.get("principals");
        principal(bp, "b-agent", "agent").putArray("tokens_sha256").add(Upstreams.sha256(B_AGENT));
        principal(bp, "b-auditor", "auditor").putArray("tokens_sha256").add(Upstreams.sha256(B_AUDITOR));
        principal(bp, "b-sa", "agent").putObject("jwt").put("subject", B_SUBJECT);
        Upstreams.tenant(tenants, "iso-b", "prefix", Map.of("probe", Upstreams.http(probe.toString())),
                Map.of("sanitize", false, "auth", b));
        return () -> server.stop(0);
    }

    private static ObjectNode auth(String jwksUrl, String audience) {
        ObjectNode auth = Json.object();
        ObjectNode issuer = auth.putObject("jwt_issuers").putObject("cluster");
        issuer.put("issuer", ISSUER);
        issuer.putArray("audiences").add(audience);
        issuer.put("jwks_url", jwksUrl);
        auth.putObject("principals");
        return auth;
    }

    private static ObjectNode principal(ObjectNode principals, String name, String role) {
        ObjectNode p = principals.putObject(name);
        p.putArray("roles").add(role);
        return p;
    }
}
