package dev.cloakgate.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.testing.TestJwts;

/**
 * Issue 16, one OAuth tenant's credentials without the gateway: every subject of the authorization server is its own
 * principal (template name and digest, never the subject), with the roles its token's scopes grant; the audience is
 * this tenant's resource exactly; the metadata URL is the resource's by path insertion.
 */
class OAuthSubjectsTest {
    private static final String ISS = "https://login.example.com/realms/corp";
    private static final String PUBLIC = "https://gw.example/prefix";
    private static final String RESOURCE = PUBLIC + "/t/acme/mcp";
    private static final TestJwts KEY = TestJwts.generate("as-1");

    private static TenantAuth tenant(Path dir) throws Exception {
        Path jwks = Files.writeString(dir.resolve("jwks.json"), TestJwts.jwks(KEY));
        AuthSettings.IssuerSettings corp = new AuthSettings.IssuerSettings("corp", ISS, List.of(), jwks, null, null, null,
                AuthSettings.IssuerSettings.DEFAULT_REFRESH, Duration.ofSeconds(5), "sub", Duration.ofSeconds(30));
        AuthSettings.OAuthSettings oauth = new AuthSettings.OAuthSettings(Map.of("corp", corp), List.of("mcp", "audit", "extra"),
                Map.of(Role.AGENT, List.of("mcp"), Role.AUDITOR, List.of("audit", "extra")), "people", null, PrincipalLimits.DEFAULTS);
        return TenantAuth.create("acme", new AuthSettings(false, Map.of(), Map.of(), PrincipalLimits.DEFAULTS, oauth),
                Runnable::run, true, System::nanoTime, PUBLIC, OAuthSubjectsTest::hmac);
    }

    /** The gateway's subject digest: HMAC under the tenant's secret (here a fixed one). */
    private static String hmac(String text) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(new byte[32], "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String token(String audience, String subject, Object scope, boolean scp) {
        JwtClaims c = TestJwts.claims(ISS, audience, subject);
        c.setClaim(scp ? "scp" : "scope", scope);
        return "Bearer " + KEY.sign(c);
    }

    private static Authentication.Authenticated ok(Authentication a) {
        return assertInstanceOf(Authentication.Authenticated.class, a, () -> "refused: " + a);
    }

    @Test
    void eachSubjectIsItsOwnPrincipalWithTheRolesItsScopesGrant(@TempDir Path dir) throws Exception {
        TenantAuth auth = tenant(dir);
        Authentication.Authenticated dana = ok(auth.authenticate(token(RESOURCE, "dana@example.com", "mcp", false)));
        assertTrue(dana.oauth());
        Principal p = dana.principal();
        assertTrue(p.name().matches("people~[0-9a-f]{24}"), p.name());
        assertFalse(p.name().contains("dana"), "the subject is never the name");
        String plain = java.util.HexFormat.of().formatHex(StaticTokens.sha256(ISS + "\u0000dana@example.com"));
        assertFalse(plain.contains(p.name().substring(7)), "nor a plain hash of it, which is reversed by guessing");
        assertEquals(Set.of(Role.AGENT), p.roles());
        Principal again = ok(auth.authenticate(token(RESOURCE, "dana@example.com", "mcp audit extra", false))).principal();
        assertTrue(again.sameAs(p), "one subject, one principal, whatever its token");
        assertEquals(Set.of(Role.AGENT, Role.AUDITOR), again.roles());
        Principal lee = ok(auth.authenticate(token(RESOURCE, "lee@example.com", "mcp", false))).principal();
        assertFalse(lee.sameAs(p), "another subject does not share the sessions or the limits");
        assertNotEquals(p.name(), lee.name());
        assertEquals(Set.of(Role.AUDITOR), ok(auth.authenticate(token(RESOURCE, "x", List.of("audit", "extra"), true))).principal().roles(),
                "scp as a list");
        assertEquals(Set.of(), ok(auth.authenticate(token(RESOURCE, "x", "audit", false))).principal().roles(),
                "a role takes all of its scopes");
    }

    @Test
    void onlyThisTenantsResourceExactlyIsTheAudience(@TempDir Path dir) throws Exception {
        TenantAuth auth = tenant(dir);
        for (String aud : List.of(PUBLIC + "/t/other/mcp", RESOURCE + "/", PUBLIC, "https://gw.example", "HTTPS://gw.example/prefix/t/acme/mcp")) {
            Authentication a = auth.authenticate(token(aud, "dana@example.com", "mcp", false));
            assertEquals(AuthFailure.AUDIENCE_MISMATCH, assertInstanceOf(Authentication.Rejected.class, a, aud::toString).failure(), aud);
        }
    }

    @Test
    void theMetadataIsAtThePathInsertedWellKnownAndNamesTheServers(@TempDir Path dir) throws Exception {
        ProtectedResource r = tenant(dir).resource();
        assertEquals(RESOURCE, r.resource());
        assertEquals("https://gw.example/.well-known/oauth-protected-resource/prefix/t/acme/mcp", r.metadataUrl());
        assertEquals(List.of(ISS), r.authorizationServers());
        assertEquals("mcp", r.scope(Role.AGENT));
        assertEquals("audit extra", r.scope(Role.AUDITOR));
        assertEquals(null, r.scope(Role.OPERATOR));
        assertEquals("[\"header\"]", r.metadata().get("bearer_methods_supported").toString());
    }

    @Test
    void anOAuthTenantWithoutAPublicUrlIsRefused(@TempDir Path dir) throws Exception {
        TenantAuth ok = tenant(dir);
        AuthSetupException e = assertThrows(AuthSetupException.class, () -> TenantAuth.create("acme", ok.settings(),
                Runnable::run, true, System::nanoTime, null, OAuthSubjectsTest::hmac));
        assertEquals("$.auth.oauth", e.path());
        assertTrue(e.getMessage().startsWith("public_url_required"), e.getMessage());
        assertEquals("$.auth.oauth", assertThrows(AuthSetupException.class, () -> TenantAuth.create("acme", ok.settings(),
                Runnable::run, true, System::nanoTime, PUBLIC)).path(), "never a plain hash of the subject");
    }

    @Test
    void serverMetadataIsLookedForWhereRfc8414AndOpenIdDiscoveryPutIt() {
        assertEquals(List.of(URI.create("https://login.example.com/.well-known/oauth-authorization-server/realms/corp"),
                URI.create("https://login.example.com/.well-known/openid-configuration/realms/corp"),
                URI.create("https://login.example.com/realms/corp/.well-known/openid-configuration")),
                dev.cloakgate.net.WellKnown.authorizationServerMetadata(URI.create(ISS)));
        assertEquals(List.of(URI.create("https://as.example/.well-known/oauth-authorization-server"),
                URI.create("https://as.example/.well-known/openid-configuration")),
                dev.cloakgate.net.WellKnown.authorizationServerMetadata(URI.create("https://as.example")));
    }
}
