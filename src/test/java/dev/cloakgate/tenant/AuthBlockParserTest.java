package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cloakgate.auth.AuthSettings;
import dev.cloakgate.auth.PrincipalLimits;
import dev.cloakgate.auth.Role;

/** The tenant file's auth block (issue 10): every mistake is refused naming its key; no credential is kept in it. */
class AuthBlockParserTest {
    private static final String UP = "{\"upstreams\":{\"fs\":{\"command\":\"x\"},\"crm\":{\"url\":\"http://h/mcp\"}},";
    private static final String H1 = "a".repeat(64);
    private static final String H2 = "b".repeat(64);
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of("ISSUER", "https://kubernetes.default.svc")),
            Path.of("/work"));

    @Test
    void aTenantWithoutAnAuthBlockIsRefused() {
        TenantConfigException e = failure("{\"upstreams\":{\"fs\":{\"command\":\"x\"}}}");
        assertEquals("$.auth", e.path());
        assertTrue(e.getMessage().contains("\"mode\": \"none\""), e.getMessage());
    }

    @Test
    void modeNoneOpensTheMcpEndpointAndKeepsAdminPrincipals() throws Exception {
        AuthSettings open = parse(UP + "\"auth\":{\"mode\":\"none\"}}").auth();
        assertTrue(open.open());
        assertTrue(open.principals().isEmpty());
        AuthSettings withAuditor = parse(UP + "\"auth\":{\"mode\":\"none\",\"principals\":{\"audit\":{\"roles\":[\"auditor\"],"
                + "\"tokens_sha256\":[\"" + H1 + "\"]}}}}").auth();
        assertEquals(Set.of(Role.AUDITOR), withAuditor.principals().get("audit").roles());
        assertEquals("$.auth.principals.bot.roles", failure(UP + "\"auth\":{\"mode\":\"none\",\"principals\":{\"bot\":"
                + "{\"roles\":[\"agent\"],\"tokens_sha256\":[\"" + H1 + "\"]}}}}").path(), "an agent principal would never be asked");
        assertEquals("$.auth.limits", failure(UP + "\"auth\":{\"mode\":\"none\",\"limits\":{\"sessions\":3}}}").path());
        assertEquals("$.auth.mode", failure(UP + "\"auth\":{\"mode\":\"off\"}}").path());
    }

    @Test
    void readsPrincipalsWithStaticTokensTokenFilesJwtsToolsAndLimits() throws Exception {
        AuthSettings a = parse(UP + """
                "auth": {
                  "jwt_issuers": {"cluster": {"issuer": "${env:ISSUER}", "audiences": ["cloakgate"],
                                  "jwks_url": "https://kubernetes.default.svc/openid/v1/jwks",
                                  "jwks_ca_file": "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt",
                                  "jwks_token_file": "/var/run/secrets/kubernetes.io/serviceaccount/token",
                                  "jwks_refresh_seconds": 60, "clock_skew_seconds": 10}},
                  "principals": {
                    "billing-agent": {"roles": ["agent"], "tools": ["fs__read_text_file"],
                                      "jwt": {"subject": "system:serviceaccount:team-a:billing-agent"},
                                      "limits": {"calls_per_minute": 30}},
                    "ops": {"roles": ["operator", "approver"], "tokens_sha256": ["%s", "%s"]},
                    "audit": {"roles": ["auditor"], "token_file": "secrets/auditor"}
                  },
                  "limits": {"sessions": 8}
                }}""".formatted(H1, H2)).auth();
        assertTrue(!a.open());
        assertEquals(List.of("billing-agent", "ops", "audit"), List.copyOf(a.principals().keySet()));
        AuthSettings.PrincipalSettings bot = a.principals().get("billing-agent");
        assertEquals(Set.of("fs__read_text_file"), bot.tools());
        assertEquals(new AuthSettings.JwtIdentity("cluster", "system:serviceaccount:team-a:billing-agent"), bot.jwt());
        assertEquals(new PrincipalLimits(30, 8), bot.limits(), "its own rate, the tenant's session limit");
        assertEquals(new PrincipalLimits(PrincipalLimits.DEFAULTS.callsPerMinute(), 8), a.principals().get("ops").limits());
        assertEquals(List.of(H1, H2), a.principals().get("ops").tokenSha256());
        assertNull(a.principals().get("ops").tools(), "no subset: every tool");
        assertEquals(Path.of("/work/secrets/auditor"), a.principals().get("audit").tokenFile());
        AuthSettings.IssuerSettings k8s = a.issuers().get("cluster");
        assertEquals("https://kubernetes.default.svc", k8s.issuer(), "expanded from the environment");
        assertEquals(URI.create("https://kubernetes.default.svc/openid/v1/jwks"), k8s.jwksUrl());
        assertEquals(Duration.ofSeconds(60), k8s.refresh());
        assertEquals(Duration.ofSeconds(10), k8s.clockSkew());
        assertEquals(AuthSettings.IssuerSettings.DEFAULT_FETCH_TIMEOUT, k8s.fetchTimeout());
        assertEquals("sub", k8s.principalClaim());
    }

    @Test
    void aPlainTokenInTheFileIsRefused() {
        TenantConfigException notAHash = failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[\"agent\"],"
                + "\"tokens_sha256\":[\"my-secret-token\"]}}}}");
        assertEquals("$.auth.principals.bot.tokens_sha256[0]", notAHash.path());
        assertTrue(!notAHash.getMessage().contains("my-secret-token"), "the refusal does not repeat it: " + notAHash.getMessage());
        assertEquals("$.auth.principals.bot.tokens_sha256[0]", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":"
                + "[\"agent\"],\"tokens_sha256\":[\"" + "A".repeat(64) + "\"]}}}}").path(), "upper-case hex: not what sha256sum prints");
        TenantConfigException plain = failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[\"agent\"],\"token\":\"x\"}}}}");
        assertEquals("$.auth.principals.bot.token", plain.path());
        assertTrue(plain.getMessage().contains("tokens_sha256") && plain.getMessage().contains("token_file"), plain.getMessage());
    }

    @Test
    void everyMistakeNamesItsKey() {
        String agent = "\"bot\":{\"roles\":[\"agent\"],\"tokens_sha256\":[\"" + H1 + "\"]}";
        assertEquals("$.auth.principal", failure(UP + "\"auth\":{\"principal\":{}}}").path());
        assertEquals("$.auth.principals.bot.role", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"role\":[\"agent\"]}}}}").path());
        assertEquals("$.auth.principals.bot.roles", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[\"admin\"],"
                + "\"tokens_sha256\":[\"" + H1 + "\"]}}}}").path());
        assertEquals("$.auth.principals.bot.roles", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[]}}}}").path());
        assertEquals("$.auth.principals.bot", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[\"agent\"]}}}}").path(),
                "a principal without a credential");
        assertEquals("$.auth.principals", failure(UP + "\"auth\":{\"principals\":{\"audit\":{\"roles\":[\"auditor\"],"
                + "\"tokens_sha256\":[\"" + H1 + "\"]}}}}").path(), "no agent: nobody could use the endpoint");
        assertEquals("$.auth.principals", failure(UP + "\"auth\":{}}").path());
        assertEquals("$.auth.principals.b~t", failure(UP + "\"auth\":{\"principals\":{\"b~t\":{\"roles\":[\"agent\"],"
                + "\"tokens_sha256\":[\"" + H1 + "\"]}}}}").path());
        assertEquals("$.auth.principals.two.tokens_sha256[0]", failure(UP + "\"auth\":{\"principals\":{" + agent
                + ",\"two\":{\"roles\":[\"agent\"],\"tokens_sha256\":[\"" + H1 + "\"]}}}}").path(), "one token, one principal");
        assertEquals("$.auth.principals.bot.tools[0]", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[\"agent\"],"
                + "\"tools\":[\"read_text_file\"],\"tokens_sha256\":[\"" + H1 + "\"]}}}}").path(), "tools as agents see them");
        assertEquals("$.auth.principals.bot.tools[0]", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[\"agent\"],"
                + "\"tools\":[\"nope__read\"],\"tokens_sha256\":[\"" + H1 + "\"]}}}}").path());
        assertEquals("$.auth.principals.audit.tools", failure(UP + "\"auth\":{\"principals\":{" + agent + ",\"audit\":"
                + "{\"roles\":[\"auditor\"],\"tools\":[],\"tokens_sha256\":[\"" + H2 + "\"]}}}}").path());
        assertEquals("$.auth.limits.calls", failure(UP + "\"auth\":{\"principals\":{" + agent + "},\"limits\":{\"calls\":5}}}").path());
        assertEquals("$.auth.limits.sessions", failure(UP + "\"auth\":{\"principals\":{" + agent + "},\"limits\":{\"sessions\":0}}}").path());
        assertEquals("$.auth.principals.bot.jwt.issuer", failure(UP + "\"auth\":{\"principals\":{\"bot\":{\"roles\":[\"agent\"],"
                + "\"jwt\":{\"subject\":\"s\"}}}}}").path(), "a JWT identity without any issuer");
    }

    @Test
    void issuersAreCheckedKeyByKey() {
        String agent = ",\"principals\":{\"bot\":{\"roles\":[\"agent\"],\"jwt\":{\"subject\":\"s\"}}}";
        String ok = "\"issuer\":\"https://i\",\"audiences\":[\"cloakgate\"]";
        assertEquals("$.auth.jwt_issuers.k.audiences", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{\"issuer\":\"https://i\","
                + "\"audiences\":[],\"jwks_file\":\"/j\"}}" + agent + "}}").path(), "an audience is required");
        assertEquals("$.auth.jwt_issuers.k.audience", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"audience\":\"x\",\"jwks_file\":\"/j\"}}" + agent + "}}").path());
        assertEquals("$.auth.jwt_issuers.k", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok + "}}" + agent + "}}").path(),
                "neither a file nor a URL");
        assertEquals("$.auth.jwt_issuers.k", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"jwks_file\":\"/j\",\"jwks_url\":\"https://i/jwks\"}}" + agent + "}}").path(), "both");
        assertEquals("$.auth.jwt_issuers.k.jwks_url", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"jwks_url\":\"http://issuer.example/jwks\"}}" + agent + "}}").path(), "plain HTTP off the host");
        assertEquals("$.auth.jwt_issuers.k.jwks_ca_file", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"jwks_file\":\"/j\",\"jwks_ca_file\":\"/ca\"}}" + agent + "}}").path());
        assertEquals("$.auth.jwt_issuers.k.jwks_timeout_seconds", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"jwks_file\":\"/j\",\"jwks_timeout_seconds\":600}}" + agent + "}}").path());
        assertEquals("$.auth.jwt_issuers.l.issuer", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"jwks_file\":\"/j\"},\"l\":{" + ok + ",\"jwks_file\":\"/k\"}},\"principals\":{\"bot\":{\"roles\":[\"agent\"],"
                + "\"jwt\":{\"issuer\":\"k\",\"subject\":\"s\"}}}}}").path(), "one iss, one issuer");
        assertEquals("$.auth.principals.bot.jwt.issuer", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"jwks_file\":\"/j\"}},\"principals\":{\"bot\":{\"roles\":[\"agent\"],\"jwt\":{\"issuer\":\"x\",\"subject\":\"s\"}}}}}")
                .path());
        assertEquals("$.auth.principals.two.jwt.subject", failure(UP + "\"auth\":{\"jwt_issuers\":{\"k\":{" + ok
                + ",\"jwks_url\":\"http://127.0.0.1:1/jwks\"}},\"principals\":{\"bot\":{\"roles\":[\"agent\"],\"jwt\":{\"subject\":\"s\"}},"
                + "\"two\":{\"roles\":[\"agent\"],\"jwt\":{\"subject\":\"s\"}}}}}").path(), "one subject, one principal");
    }

    private TenantConfig parse(String json) throws TenantConfigException {
        return parser.parse("t", "t.json", json.getBytes(StandardCharsets.UTF_8));
    }

    private TenantConfigException failure(String json) {
        return assertThrows(TenantConfigException.class, () -> parse(json));
    }
}
