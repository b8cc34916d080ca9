package dev.cloakgate.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import dev.cloakgate.testing.TestJwts;

/**
 * One tenant's credentials without the gateway: static tokens by digest, token files re-read, and JWTs verified by
 * smallrye-jwt against a JWKS from a file or fetched over real HTTP, each refusal named by its reason.
 */
class TenantAuthTest {
    private static final String ISS = "https://issuer.test/cluster";
    private static final String AUD = "cloakgate-acme";
    private static final String SA = "system:serviceaccount:team-a:billing-agent";
    private static final TestJwts KEY = TestJwts.generate("key-1");
    private static final TestJwts OTHER = TestJwts.generate("key-2");

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void staticTokensByDigestAndTokenFilesReReadWhenTheyChange(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("auditor-token"), "auditor-from-a-secret\n");
        Map<String, AuthSettings.PrincipalSettings> ps = new LinkedHashMap<>();
        ps.put("bot", principal("bot", Set.of(Role.AGENT), List.of(sha("agent-token")), null, null));
        ps.put("audit", principal("audit", Set.of(Role.AUDITOR), List.of(), secret, null));
        TenantAuth auth = TenantAuth.create("acme", settings(ps, Map.of()), Runnable::run, true, System::nanoTime, null);

        assertEquals("bot", principal(auth.authenticate("Bearer agent-token")).name());
        assertEquals("bot", principal(auth.authenticate("bearer   agent-token ")).name(), "scheme is case-insensitive");
        assertEquals("audit", principal(auth.authenticate("Bearer auditor-from-a-secret")).name(), "trimmed file content");
        assertEquals(AuthFailure.UNKNOWN_TOKEN, failure(auth.authenticate("Bearer agent-token-2")));
        assertEquals(AuthFailure.MISSING_CREDENTIAL, failure(auth.authenticate(null)));
        assertEquals(AuthFailure.MISSING_CREDENTIAL, failure(auth.authenticate("Basic YWdlbnQ6dG9rZW4=")));
        assertEquals(AuthFailure.MISSING_CREDENTIAL, failure(auth.authenticate("Bearer ")));
        assertEquals(AuthFailure.UNKNOWN_TOKEN, failure(auth.authenticate("Bearer a b")), "not a b64token");
        assertEquals(AuthFailure.UNKNOWN_TOKEN, failure(auth.authenticate("Bearer " + KEY.sign(TestJwts.claims(ISS, AUD, SA)))),
                "a JWT where no issuer is trusted is just an unknown token");

        // the Secret is rotated (a kubelet swaps the file): the old token stops working, the new one works
        Files.writeString(secret, "rotated-auditor-token");
        auth.refresh();
        assertEquals(AuthFailure.UNKNOWN_TOKEN, failure(auth.authenticate("Bearer auditor-from-a-secret")));
        assertEquals("audit", principal(auth.authenticate("Bearer rotated-auditor-token")).name());
        Files.delete(secret);
        auth.refresh();
        assertEquals(AuthFailure.UNKNOWN_TOKEN, failure(auth.authenticate("Bearer rotated-auditor-token")),
                "a deleted Secret revokes its token");

        AuthSetupException missing = assertThrows(AuthSetupException.class, () -> TenantAuth.create("acme",
                settings(Map.of("audit", principal("audit", Set.of(Role.AUDITOR), List.of(), dir.resolve("nope"), null)), Map.of()),
                Runnable::run, true, System::nanoTime, null));
        assertEquals("$.auth.principals.audit.token_file", missing.path());
    }

    @Test
    void jwtsAreVerifiedAgainstTheIssuersKeysAndEachRefusalIsNamed(@TempDir Path dir) throws Exception {
        Path jwks = Files.writeString(dir.resolve("jwks.json"), TestJwts.jwks(KEY));
        TenantAuth auth = jwtTenant(issuer(jwks, null));

        assertEquals("billing", principal(auth.authenticate("Bearer " + KEY.sign(TestJwts.claims(ISS, AUD, SA)))).name());
        assertEquals(AuthFailure.TOKEN_EXPIRED, failure(auth.authenticate("Bearer " + KEY.sign(TestJwts.expired(ISS, AUD, SA, 5)))));
        assertEquals("billing", principal(auth.authenticate("Bearer " + KEY.sign(TestJwts.expired(ISS, AUD, SA, 0)))).name(),
                "expired within the clock skew");
        assertEquals(AuthFailure.ISSUER_UNTRUSTED, failure(auth.authenticate("Bearer " + KEY.sign(TestJwts.claims(
                "https://issuer.test/other", AUD, SA)))));
        assertEquals(AuthFailure.AUDIENCE_MISMATCH, failure(auth.authenticate("Bearer " + KEY.sign(TestJwts.claims(ISS,
                "cloakgate-other", SA)))));
        assertEquals(AuthFailure.KEY_UNKNOWN, failure(auth.authenticate("Bearer " + OTHER.sign(TestJwts.claims(ISS, AUD, SA)))),
                "signed by a key the JWKS does not hold");
        assertEquals(AuthFailure.SIGNATURE_INVALID, failure(auth.authenticate("Bearer " + OTHER.sign(TestJwts.claims(ISS, AUD, SA),
                KEY.kid()))), "another key under the trusted key's id");
        assertEquals(AuthFailure.ALGORITHM_REFUSED, failure(auth.authenticate("Bearer " + TestJwts.unsigned(TestJwts.claims(ISS, AUD,
                SA), KEY.kid()))), "alg none");
        assertEquals(AuthFailure.UNKNOWN_SUBJECT, failure(auth.authenticate("Bearer " + KEY.sign(TestJwts.claims(ISS, AUD,
                "system:serviceaccount:team-b:intruder")))));
        org.jose4j.jwt.JwtClaims noSub = TestJwts.claims(ISS, AUD, SA);
        noSub.unsetClaim("sub");
        assertEquals(AuthFailure.CLAIM_MISSING, failure(auth.authenticate("Bearer " + KEY.sign(noSub))));
        String good = KEY.sign(TestJwts.claims(ISS, AUD, SA));
        String[] parts = good.split("\\.");
        assertEquals(AuthFailure.SIGNATURE_INVALID, failure(auth.authenticate("Bearer " + parts[0] + "."
                + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(TestJwts.claims(ISS, AUD, SA + "x").toJson()
                        .getBytes(StandardCharsets.UTF_8)) + "." + parts[2])), "claims changed after signing");
        assertEquals(AuthFailure.MALFORMED_JWT, failure(auth.authenticate("Bearer abc.def.ghi")));

        // the JWKS file is updated (the issuer rotated): the new key is picked up on refresh
        Files.writeString(jwks, TestJwts.jwks(KEY, OTHER));
        auth.refresh();
        assertEquals("billing", principal(auth.authenticate("Bearer " + OTHER.sign(TestJwts.claims(ISS, AUD, SA)))).name());
        Files.writeString(jwks, "{not json");
        auth.refresh();
        assertEquals("billing", principal(auth.authenticate("Bearer " + OTHER.sign(TestJwts.claims(ISS, AUD, SA)))).name(),
                "a broken file keeps the keys read before");

        Path symmetric = Files.writeString(dir.resolve("oct.json"), "{\"keys\":[{\"kty\":\"oct\",\"k\":\"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0\"}]}");
        AuthSetupException oct = assertThrows(AuthSetupException.class, () -> jwtTenant(issuer(symmetric, null)));
        assertEquals("$.auth.jwt_issuers.cluster.jwks_file", oct.path());
    }

    @Test
    void aJwksUrlIsFetchedOnceKeptAndFetchedAgainForAnUnknownKeyNotMoreOftenThanAllowed() throws Exception {
        AtomicReference<String> served = new AtomicReference<>(TestJwts.jwks(KEY));
        AtomicInteger fetches = new AtomicInteger();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jwks", ex -> {
            fetches.incrementAndGet();
            byte[] b = served.get().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
        AtomicLong clock = new AtomicLong(1_000_000_000_000L);
        TenantAuth auth = TenantAuth.create("acme", settings(Map.of("billing", principal("billing", Set.of(Role.AGENT), List.of(),
                null, new AuthSettings.JwtIdentity("cluster", SA))), Map.of("cluster", issuer(null, url))), Runnable::run, true, clock::get, null);
        assertEquals(1, fetches.get());
        for (int i = 0; i < 5; i++) {
            assertEquals("billing", principal(auth.authenticate("Bearer " + KEY.sign(TestJwts.claims(ISS, AUD, SA)))).name());
        }
        assertEquals(1, fetches.get(), "verification uses the cached keys");

        // the issuer rotates to a new key: the first token under it makes the gateway look again
        served.set(TestJwts.jwks(KEY, OTHER));
        clock.addAndGet(TenantAuth.EARLY_FETCH_NANOS);
        assertEquals(AuthFailure.KEY_UNKNOWN, failure(auth.authenticate("Bearer " + OTHER.sign(TestJwts.claims(ISS, AUD, SA)))));
        assertEquals(2, fetches.get());
        assertEquals("billing", principal(auth.authenticate("Bearer " + OTHER.sign(TestJwts.claims(ISS, AUD, SA)))).name());
        // tokens under key ids nobody has do not make it fetch more than once per interval
        TestJwts stranger = TestJwts.generate("key-3");
        for (int i = 0; i < 5; i++) {
            assertEquals(AuthFailure.KEY_UNKNOWN, failure(auth.authenticate("Bearer " + stranger.sign(TestJwts.claims(ISS, AUD, SA)))));
        }
        assertEquals(2, fetches.get());
        // and the refresh interval brings a new fetch
        clock.addAndGet(Duration.ofMinutes(5).toNanos());
        auth.refresh();
        assertEquals(3, fetches.get());
    }

    @Test
    void aJwksUrlThatDoesNotAnswerIsGivenUpWithinItsTimeoutAndItsJwtsRefused() throws Exception {
        // accepts the connection, never answers
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jwks", ex -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
        AuthSettings.IssuerSettings s = issuer(null, url);
        s = new AuthSettings.IssuerSettings(s.name(), s.issuer(), s.audiences(), null, url, null, null, s.refresh(),
                Duration.ofSeconds(1), s.principalClaim(), s.clockSkew());
        long t0 = System.nanoTime();
        TenantAuth auth = TenantAuth.create("acme", settings(Map.of("billing", principal("billing", Set.of(Role.AGENT), List.of(),
                null, new AuthSettings.JwtIdentity("cluster", SA))), Map.of("cluster", s)), Runnable::run, true, System::nanoTime, null);
        long took = System.nanoTime() - t0;
        assertTrue(took < Duration.ofSeconds(20).toNanos(), "the fetch gave up: " + took / 1_000_000 + " ms");
        assertEquals(List.of("cluster"), auth.issuersWithoutKeys());
        assertEquals(AuthFailure.JWKS_UNAVAILABLE, failure(auth.authenticate("Bearer " + KEY.sign(TestJwts.claims(ISS, AUD, SA)))));
    }

    @Test
    void perPrincipalLimitsCountCallsPerMinuteAndOpenSessions() {
        AtomicLong clock = new AtomicLong();
        PrincipalMeter meter = new PrincipalMeter(clock::get);
        Principal p = new Principal("acme", "bot", Set.of(Role.AGENT), null, new PrincipalLimits(3, 2));
        for (int i = 0; i < 3; i++) {
            assertEquals(0, meter.tryCall(p));
        }
        long wait = meter.tryCall(p);
        assertEquals(20, wait, "one call every 20 s at 3 a minute");
        clock.addAndGet(Duration.ofSeconds(20).toNanos());
        assertEquals(0, meter.tryCall(p));
        assertTrue(meter.tryCall(p) > 0);
        clock.addAndGet(Duration.ofDays(3).toNanos());
        for (int i = 0; i < 3; i++) {
            assertEquals(0, meter.tryCall(p), "a long pause fills the bucket, no more");
        }
        assertTrue(meter.tryCall(p) > 0);
        Principal other = new Principal("acme", "other", Set.of(Role.AGENT), null, new PrincipalLimits(3, 2));
        assertEquals(0, meter.tryCall(other), "each principal has its own allowance");

        PrincipalMeter.Lease a = meter.openSession(p);
        PrincipalMeter.Lease b = meter.openSession(p);
        assertTrue(a != null && b != null);
        assertEquals(null, meter.openSession(p));
        a.release();
        a.release();
        assertEquals(1, meter.sessions(p), "released once");
        assertTrue(meter.openSession(p) != null);
        assertTrue(meter.openSession(Principal.anonymous("acme")) != null, "no limit for the anonymous agent");
    }

    private static TenantAuth jwtTenant(AuthSettings.IssuerSettings issuer) throws AuthSetupException {
        return TenantAuth.create("acme", settings(Map.of("billing", principal("billing", Set.of(Role.AGENT), List.of(), null,
                new AuthSettings.JwtIdentity("cluster", SA))), Map.of("cluster", issuer)), Runnable::run, true, System::nanoTime, null);
    }

    private static AuthSettings.IssuerSettings issuer(Path file, URI url) {
        return new AuthSettings.IssuerSettings("cluster", ISS, List.of(AUD), file, url, null, null,
                AuthSettings.IssuerSettings.DEFAULT_REFRESH, Duration.ofSeconds(5), "sub", Duration.ofSeconds(30));
    }

    private static AuthSettings settings(Map<String, AuthSettings.PrincipalSettings> principals,
            Map<String, AuthSettings.IssuerSettings> issuers) {
        return new AuthSettings(false, principals, issuers, PrincipalLimits.DEFAULTS);
    }

    private static AuthSettings.PrincipalSettings principal(String name, Set<Role> roles, List<String> hashes, Path file,
            AuthSettings.JwtIdentity jwt) {
        return new AuthSettings.PrincipalSettings(name, roles, null, hashes, file, jwt, PrincipalLimits.DEFAULTS);
    }

    private static String sha(String token) {
        return java.util.HexFormat.of().formatHex(StaticTokens.sha256(token));
    }

    private static Principal principal(Authentication a) {
        return assertInstanceOf(Authentication.Authenticated.class, a, () -> "refused: " + a).principal();
    }

    private static AuthFailure failure(Authentication a) {
        return assertInstanceOf(Authentication.Rejected.class, a, () -> "accepted: " + a).failure();
    }

}
