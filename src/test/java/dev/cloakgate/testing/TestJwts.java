package dev.cloakgate.testing;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;

import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/**
 * An issuer for tests: an RSA key with a key id, its JWKS, and tokens signed with it (jose4j, which smallrye-jwt
 * itself uses). Its private key crosses the class-loader boundary between a Quarkus test resource and the tests as
 * base64 PKCS#8 text in a system property.
 */
public final class TestJwts {
    private final String kid;
    private final KeyPair keys;

    private TestJwts(String kid, KeyPair keys) {
        this.kid = kid;
        this.keys = keys;
    }

    /** A fresh 2048-bit RSA key under this key id. */
    public static TestJwts generate(String kid) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return new TestJwts(kid, g.generateKeyPair());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key as {@link #exported()} wrote it. */
    public static TestJwts imported(String exported) {
        try {
            String[] parts = exported.split(":", 3);
            KeyFactory f = KeyFactory.getInstance("RSA");
            PrivateKey priv = f.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(parts[2])));
            java.security.PublicKey pub = f.generatePublic(new java.security.spec.X509EncodedKeySpec(Base64.getDecoder().decode(parts[1])));
            return new TestJwts(parts[0], new KeyPair(pub, priv));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** kid:public:private, base64. */
    public String exported() {
        return kid + ":" + Base64.getEncoder().encodeToString(keys.getPublic().getEncoded()) + ":"
                + Base64.getEncoder().encodeToString(keys.getPrivate().getEncoded());
    }

    public String kid() {
        return kid;
    }

    /** This key's public JWK, as an issuer publishes it. */
    public RsaJsonWebKey jwk() {
        RsaJsonWebKey jwk = new RsaJsonWebKey((java.security.interfaces.RSAPublicKey) keys.getPublic());
        jwk.setKeyId(kid);
        jwk.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
        jwk.setUse("sig");
        return jwk;
    }

    /** A JWKS document with the public keys of these issuers. */
    public static String jwks(TestJwts... issuers) {
        List<JsonWebKey> all = new java.util.ArrayList<>();
        for (TestJwts t : issuers) {
            all.add(t.jwk());
        }
        return new JsonWebKeySet(all).toJson();
    }

    /** Claims as a service-account token has them, valid for ten minutes from now. */
    public static JwtClaims claims(String issuer, String audience, String subject) {
        JwtClaims c = new JwtClaims();
        c.setIssuer(issuer);
        c.setAudience(audience);
        c.setSubject(subject);
        c.setIssuedAtToNow();
        c.setNotBeforeMinutesInThePast(1);
        c.setExpirationTimeMinutesInTheFuture(10);
        return c;
    }

    /** The same, expired {@code minutesAgo} minutes ago. */
    public static JwtClaims expired(String issuer, String audience, String subject, int minutesAgo) {
        JwtClaims c = claims(issuer, audience, subject);
        NumericDate past = NumericDate.now();
        past.addSeconds(-60L * minutesAgo);
        NumericDate issued = NumericDate.now();
        issued.addSeconds(-60L * (minutesAgo + 10));
        c.setIssuedAt(issued);
        c.setNotBefore(issued);
        c.setExpirationTime(past);
        return c;
    }

    /** Signed RS256 under this key's id. */
    public String sign(JwtClaims claims) {
        return sign(claims, kid);
    }

    /** Signed RS256 with this key, under any key id. */
    public String sign(JwtClaims claims, String keyId) {
        try {
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setKey(keys.getPrivate());
            jws.setKeyIdHeaderValue(keyId);
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsecured JWT ({@code "alg": "none"}, empty signature) with these claims. */
    public static String unsigned(JwtClaims claims, String keyId) {
        Base64.Encoder b = Base64.getUrlEncoder().withoutPadding();
        String header = "{\"alg\":\"none\",\"kid\":\"" + keyId + "\"}";
        return b.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + b.encodeToString(claims.toJson().getBytes(StandardCharsets.UTF_8)) + ".";
    }
}
