package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cloakgate.auth.AuthSettings;
import dev.cloakgate.auth.Role;

/** Issue 16: the tenant file's {@code auth.oauth} block, the tenant as an OAuth protected resource. */
class OAuthBlockParserTest {
    private static final String UP = "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},";
    private static final String OK = """
            "oauth": {"authorization_servers": {"corp": {"issuer": "https://login.example.com/realms/corp"}},
                      "scopes_supported": ["mcp:tools", "mcp:audit"],
                      "role_scopes": {"agent": ["mcp:tools"], "auditor": ["mcp:audit"]},
                      "principal": {"name": "people", "tools": ["fs__read_text_file"], "limits": {"calls_per_minute": 30}}}""";
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of()), Path.of("/work"));

    private TenantConfig parse(String json) throws TenantConfigException {
        return parser.parse("acme", "acme.json", json.getBytes(StandardCharsets.UTF_8));
    }

    private TenantConfigException failure(String auth) {
        return assertThrows(TenantConfigException.class, () -> parse(UP + "\"auth\":{" + auth + "}}"));
    }

    @Test
    void readsTheServersScopesRolesAndPrincipalTemplate() throws Exception {
        AuthSettings a = parse(UP + "\"auth\":{" + OK + "}}").auth();
        AuthSettings.OAuthSettings o = a.oauth();
        assertEquals("https://login.example.com/realms/corp", o.servers().get("corp").issuer());
        assertNull(o.servers().get("corp").jwksUrl(), "keys from the server's metadata");
        assertEquals(List.of(), o.servers().get("corp").audiences(), "the audience is the resource, set by the gateway");
        assertEquals(List.of("mcp:tools", "mcp:audit"), o.scopesSupported());
        assertEquals(Map.of(Role.AGENT, List.of("mcp:tools"), Role.AUDITOR, List.of("mcp:audit")), o.roleScopes());
        assertEquals("people", o.principal());
        assertEquals(Set.of("fs__read_text_file"), o.tools());
        assertEquals(30, o.limits().callsPerMinute());
        assertTrue(a.principals().isEmpty(), "no principal with the agent role is needed beside OAuth");
    }

    @Test
    void everyMistakeIsRefusedNamingItsKey() {
        String servers = "\"authorization_servers\": {\"corp\": {\"issuer\": \"https://login.example.com\"}}";
        String rest = ", \"scopes_supported\": [\"mcp\"], \"role_scopes\": {\"agent\": [\"mcp\"]}, \"principal\": {\"name\": \"people\"}";
        assertEquals("$.auth.oauth.authorization_servers", failure("\"oauth\": {\"authorization_servers\": {}" + rest + "}").path());
        assertEquals("$.auth.oauth.authorization_servers.corp.issuer", failure("\"oauth\": {\"authorization_servers\":"
                + " {\"corp\": {\"issuer\": \"http://login.example.com\"}}" + rest + "}").path(), "plain http off loopback");
        assertEquals("$.auth.oauth.authorization_servers.corp.issuer", failure("\"oauth\": {\"authorization_servers\":"
                + " {\"corp\": {\"issuer\": \"https://login.example.com?x=1\"}}" + rest + "}").path());
        assertEquals("$.auth.oauth.authorization_servers.corp", failure("\"oauth\": {\"authorization_servers\": {\"corp\":"
                + " {\"issuer\": \"https://l.example\", \"jwks_file\": \"a\", \"jwks_url\": \"https://l.example/k\"}}" + rest + "}").path());
        assertEquals("$.auth.oauth.authorization_servers.corp.audiences", failure("\"oauth\": {\"authorization_servers\": {\"corp\":"
                + " {\"issuer\": \"https://l.example\", \"audiences\": [\"x\"]}}" + rest + "}").path(), "the audience is not configurable");
        assertEquals("$.auth.oauth.role_scopes.agent", failure("\"oauth\": {" + servers + ", \"scopes_supported\": [\"mcp\"],"
                + " \"role_scopes\": {\"auditor\": [\"mcp\"]}, \"principal\": {\"name\": \"people\"}}").path());
        assertEquals("$.auth.oauth.role_scopes.agent", failure("\"oauth\": {" + servers + ", \"scopes_supported\": [\"mcp\"],"
                + " \"role_scopes\": {\"agent\": []}, \"principal\": {\"name\": \"people\"}}").path(), "a role without a scope");
        assertEquals("$.auth.oauth.role_scopes.agent[0]", failure("\"oauth\": {" + servers + ", \"scopes_supported\": [\"mcp\"],"
                + " \"role_scopes\": {\"agent\": [\"other\"]}, \"principal\": {\"name\": \"people\"}}").path());
        assertEquals("$.auth.oauth.scopes_supported[0]", failure("\"oauth\": {" + servers + ", \"scopes_supported\": [\"a b\"],"
                + " \"role_scopes\": {\"agent\": [\"a b\"]}, \"principal\": {\"name\": \"people\"}}").path());
        assertEquals("$.auth.oauth.principal", failure("\"oauth\": {" + servers + ", \"scopes_supported\": [\"mcp\"],"
                + " \"role_scopes\": {\"agent\": [\"mcp\"]}}").path());
        assertEquals("$.auth.oauth.principal.name", failure("\"oauth\": {" + servers + rest.replace("people", "people~x") + "}").path());
        assertEquals("$.auth.oauth", failure("\"mode\": \"none\", \"oauth\": {" + servers + rest + "}").path());
        assertEquals("$.auth.oauth.principal.name", failure("\"oauth\": {" + servers + rest + "}, \"principals\": {\"people\":"
                + " {\"roles\": [\"operator\"], \"tokens_sha256\": [\"" + "a".repeat(64) + "\"]}}").path(), "a configured name");
        assertEquals("$.auth.oauth.authorization_servers.corp.issuer", failure("\"jwt_issuers\": {\"k\": {\"issuer\":"
                + " \"https://login.example.com\", \"audiences\": [\"x\"], \"jwks_url\": \"https://login.example.com/k\"}}, \"oauth\": {"
                + servers + rest + "}").path(), "one iss, two meanings");
    }
}
