import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;

import dev.cloakgate.auth.Authentication;
import dev.cloakgate.auth.AuthSettings;
import dev.cloakgate.auth.PrincipalLimits;
import dev.cloakgate.auth.Role;
import dev.cloakgate.auth.TenantAuth;

/**
 * The auth check alone, on one core: what {@code TenantAuth.authenticate} costs per request for a static token
 * (among 100 principals' digests), a JWT (RS256, 2048-bit key, keys in memory) and refused credentials of each
 * kind. Prints one JSON line per case: per-call latency percentiles in nanoseconds after warm-up.
 *
 *   bash bench/auth.sh
 */
public class AuthBench {
    private static final String ISS = "https://bench.invalid";
    private static final String AUD = "cloakgate-bench";
    private static final String SUB = "system:serviceaccount:bench:loadgen";

    public static void main(String[] args) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair keys = g.generateKeyPair();
        RsaJsonWebKey jwk = new RsaJsonWebKey((java.security.interfaces.RSAPublicKey) keys.getPublic());
        jwk.setKeyId("bench");
        jwk.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
        Path jwks = Files.createTempFile("bench-jwks", ".json");
        Files.writeString(jwks, new JsonWebKeySet(jwk).toJson());

        Map<String, AuthSettings.PrincipalSettings> principals = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 100; i++) {
            principals.put("p" + i, new AuthSettings.PrincipalSettings("p" + i, Set.of(Role.AGENT), null,
                    List.of(sha256("static-token-" + i)), null, null, PrincipalLimits.DEFAULTS));
        }
        principals.put("sa", new AuthSettings.PrincipalSettings("sa", Set.of(Role.AGENT), null, List.of(), null,
                new AuthSettings.JwtIdentity("bench", SUB), PrincipalLimits.DEFAULTS));
        AuthSettings.IssuerSettings issuer = new AuthSettings.IssuerSettings("bench", ISS, List.of(AUD), jwks, null, null, null,
                Duration.ofMinutes(5), Duration.ofSeconds(5), "sub", Duration.ofSeconds(30));
        TenantAuth auth = TenantAuth.create("bench", new AuthSettings(false, principals, Map.of("bench", issuer),
                PrincipalLimits.DEFAULTS), Runnable::run, true, System::nanoTime);

        String jwt = sign(keys, ISS, AUD, SUB);
        KeyPair other = g.generateKeyPair();
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("static-token", "Bearer static-token-77");
        cases.put("static-token-refused", "Bearer static-token-none");
        cases.put("jwt", "Bearer " + jwt);
        cases.put("jwt-refused-audience", "Bearer " + sign(keys, ISS, "other", SUB));
        cases.put("jwt-refused-signature", "Bearer " + sign(other, ISS, AUD, SUB));
        cases.put("jwt-refused-issuer", "Bearer " + sign(keys, "https://elsewhere.invalid", AUD, SUB));
        for (Map.Entry<String, String> c : cases.entrySet()) {
            boolean accept = !c.getKey().contains("refused");
            Authentication first = auth.authenticate(c.getValue());
            if ((first instanceof Authentication.Authenticated) != accept) {
                throw new IllegalStateException(c.getKey() + ": " + first);
            }
            measure(c.getKey(), auth, c.getValue());
        }
    }

    private static void measure(String label, TenantAuth auth, String header) {
        for (int i = 0; i < 20_000; i++) {
            auth.authenticate(header);
        }
        int n = 50_000;
        long[] ns = new long[n];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            auth.authenticate(header);
            ns[i] = System.nanoTime() - s;
        }
        long total = System.nanoTime() - t0;
        Arrays.sort(ns);
        System.out.printf("{\"label\":\"%s\",\"calls\":%d,\"callsPerSec\":%.0f,\"p50ns\":%d,\"p90ns\":%d,\"p99ns\":%d}%n", label, n,
                n / (total / 1e9), ns[n / 2], ns[n * 9 / 10], ns[n * 99 / 100]);
    }

    private static String sign(KeyPair keys, String iss, String aud, String sub) throws Exception {
        JwtClaims c = new JwtClaims();
        c.setIssuer(iss);
        c.setAudience(aud);
        c.setSubject(sub);
        c.setIssuedAtToNow();
        c.setExpirationTimeMinutesInTheFuture(120);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(c.toJson());
        jws.setKey(keys.getPrivate());
        jws.setKeyIdHeaderValue("bench");
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(
                java.nio.charset.StandardCharsets.UTF_8)));
    }
}
