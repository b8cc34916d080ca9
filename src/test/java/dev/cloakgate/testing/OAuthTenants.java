package dev.cloakgate.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Issue 16, the gateway as an OAuth protected resource: tenants {@code oauth-a} and {@code oauth-b} trust one
 * authorization server run in the test ({@link TestAuthorizationServer}; its keys found from its RFC 8414 metadata),
 * each its own resource. Both front a real HTTP upstream that records the headers it receives, with cloaking on.
 * The gateway's public URL names a port picked here, so that the resource a client sees in the metadata is the URL it
 * connects to. What the tests need crosses the class-loader boundary as system properties {@code test.oauth.*}.
 */
public final class OAuthTenants {
    public static final List<String> TENANTS = List.of("oauth-a", "oauth-b");
    public static final String AGENT_SCOPE = "mcp:tools";
    public static final String AUDIT_SCOPE = "mcp:audit";

    private OAuthTenants() {
    }

    /** Writes the tenants, adds the gateway's port and public URL to {@code config}; returns what stops the servers. */
    public static List<AutoCloseable> write(Path root, Path tenants, Map<String, String> config) throws IOException {
        List<AutoCloseable> running = new ArrayList<>();
        TestJwts key = TestJwts.generate("oauth-as-1");
        Path issued = root.resolve("oauth-issued.jsonl");
        TestAuthorizationServer as = TestAuthorizationServer.start(key, issued, Set.of(AGENT_SCOPE, AUDIT_SCOPE));
        running.add(as);
        Path headers = Files.writeString(root.resolve("oauth-upstream-headers.jsonl"), "");
        NodeFixtures.HttpServer recorder = NodeFixtures.startListening(NodeFixtures.DIR.resolve("header-record-server.mjs"),
                "--record", headers.toString());
        running.add(recorder);
        for (String name : TENANTS) {
            Upstreams.tenant(tenants, name, "prefix", Map.of("hr", Upstreams.http(recorder.url().toString())),
                    Map.of("sanitize", true, "auth", auth(as.issuer())));
        }
        int port = NodeFixtures.freePort();
        config.put("quarkus.http.test-port", Integer.toString(port));
        config.put("cloakgate.public-url", "http://localhost:" + port);
        System.setProperty("test.oauth.key", key.exported());
        System.setProperty("test.oauth.issuer", as.issuer());
        System.setProperty("test.oauth.issued", issued.toString());
        System.setProperty("test.oauth.headers", headers.toString());
        return running;
    }

    private static ObjectNode auth(String issuer) {
        ObjectNode auth = Json.object();
        ObjectNode oauth = auth.putObject("oauth");
        oauth.putObject("authorization_servers").putObject("corp").put("issuer", issuer);
        oauth.putArray("scopes_supported").add(AGENT_SCOPE).add(AUDIT_SCOPE);
        ObjectNode roles = oauth.putObject("role_scopes");
        roles.putArray("agent").add(AGENT_SCOPE);
        roles.putArray("auditor").add(AUDIT_SCOPE);
        oauth.putObject("principal").put("name", "people");
        return auth;
    }
}
