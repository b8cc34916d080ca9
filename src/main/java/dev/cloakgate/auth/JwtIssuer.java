package dev.cloakgate.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtContext;
import org.jose4j.lang.InvalidAlgorithmException;
import org.jose4j.lang.JoseException;
import org.jose4j.lang.UnresolvableKeyException;

import io.smallrye.jwt.KeyFormat;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.DefaultJWTTokenParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * One trusted issuer of one tenant. Verification is smallrye-jwt's ({@link DefaultJWTTokenParser} with a
 * {@link JWTAuthContextInfo} for this issuer: signature against the issuer's keys, {@code iss}, {@code aud},
 * {@code exp}, {@code nbf}, {@code iat} with the configured clock skew); this class only keeps the keys current and
 * names why a token failed. The keys are the JWKS text handed to {@link #accept}; a new set replaces the parser
 * whole, so no request ever waits for a fetch.
 */
final class JwtIssuer {
    /** Asymmetric algorithms only: a symmetric key in a JWKS would be a shared secret, and {@code none} is no signature. */
    static final Set<SignatureAlgorithm> ALGORITHMS = EnumSet.of(SignatureAlgorithm.RS256, SignatureAlgorithm.RS384,
            SignatureAlgorithm.RS512, SignatureAlgorithm.PS256, SignatureAlgorithm.PS384, SignatureAlgorithm.PS512,
            SignatureAlgorithm.ES256, SignatureAlgorithm.ES384, SignatureAlgorithm.ES512, SignatureAlgorithm.EDDSA);
    static final Set<String> ALGORITHM_NAMES;

    static {
        Set<String> names = new HashSet<>();
        ALGORITHMS.forEach(a -> names.add(a.getAlgorithm()));
        ALGORITHM_NAMES = Set.copyOf(names);
    }

    /** What a verification proved: the principal claim's value, or why not. */
    sealed interface Outcome {
        /** @param scopes the token's {@code scope} (RFC 9068, space-separated) or {@code scp} (a list) claim */
        record Verified(String subject, Set<String> scopes) implements Outcome {
        }

        record Failed(AuthFailure failure) implements Outcome {
        }
    }

    /** The current keys: the JWKS's digest (to notice a change) and the parser built on them. */
    private record Keys(String digest, int count, JWTAuthContextInfo context, Parser parser) {
    }

    private final AuthSettings.IssuerSettings settings;
    private volatile Keys keys;

    JwtIssuer(AuthSettings.IssuerSettings settings) {
        this.settings = settings;
    }

    AuthSettings.IssuerSettings settings() {
        return settings;
    }

    boolean loaded() {
        return keys != null;
    }

    int keyCount() {
        Keys k = keys;
        return k == null ? 0 : k.count();
    }

    /**
     * Takes a JWKS document as the issuer's keys, if it differs from the current one.
     *
     * @return true when the keys changed
     * @throws IllegalArgumentException when the document is not a usable JWKS (the current keys stay)
     */
    boolean accept(String jwks) {
        String digest = digest(jwks);
        Keys current = keys;
        if (current != null && current.digest().equals(digest)) {
            return false;
        }
        int count = publicKeys(jwks);
        JWTAuthContextInfo ctx = new JWTAuthContextInfo();
        ctx.setPublicKeyContent(jwks);
        ctx.setKeyFormat(KeyFormat.JWK);
        ctx.setSignatureAlgorithm(ALGORITHMS);
        ctx.setIssuedBy(settings.issuer());
        ctx.setExpectedAudience(Set.copyOf(settings.audiences()));
        ctx.setClockSkew((int) settings.clockSkew().toSeconds());
        // RSA keys under 2048 bits are refused (smallrye relaxes this by default)
        ctx.setRelaxVerificationKeyValidation(false);
        // the principal claim is checked here, whatever its name
        ctx.setRequireNamedPrincipal(false);
        Parser parser = new Parser();
        try {
            parser.prepare(ctx);
        } catch (UnresolvableKeyException e) {
            throw new IllegalArgumentException("the key set cannot be used for verification");
        }
        keys = new Keys(digest, count, ctx, parser);
        return true;
    }

    /** Verifies a token this tenant routed here by its {@code iss}; never logs or keeps the token. */
    Outcome verify(String token) {
        Keys k = keys;
        if (k == null) {
            return new Outcome.Failed(AuthFailure.JWKS_UNAVAILABLE);
        }
        JwtContext ctx;
        try {
            ctx = k.parser().parse(token, k.context());
        } catch (ParseException e) {
            return new Outcome.Failed(classify(e));
        } catch (RuntimeException e) {
            return new Outcome.Failed(AuthFailure.TOKEN_INVALID);
        }
        Object claim = ctx.getJwtClaims().getClaimValue(settings.principalClaim());
        if (!(claim instanceof String subject) || subject.isEmpty()) {
            return new Outcome.Failed(AuthFailure.CLAIM_MISSING);
        }
        return new Outcome.Verified(subject, scopes(ctx.getJwtClaims().getClaimValue("scope"),
                ctx.getJwtClaims().getClaimValue("scp")));
    }

    /** The scopes a token carries; a claim of another shape carries none. */
    private static Set<String> scopes(Object scope, Object scp) {
        Set<String> out = new HashSet<>();
        if (scope instanceof String s) {
            for (String t : s.split(" ")) {
                if (!t.isEmpty()) {
                    out.add(t);
                }
            }
        } else if (scp instanceof java.util.Collection<?> list) {
            list.forEach(x -> {
                if (x instanceof String t && !t.isEmpty()) {
                    out.add(t);
                }
            });
        } else if (scp instanceof String s) {
            return scopes(s, null);
        }
        return Set.copyOf(out);
    }

    /** Names the first check a token failed, from the exceptions smallrye-jwt and jose4j raise (never their text). */
    static AuthFailure classify(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidJwtException ij) {
                if (ij.hasExpired()) {
                    return AuthFailure.TOKEN_EXPIRED;
                }
                if (ij.hasErrorCode(ErrorCodes.AUDIENCE_INVALID) || ij.hasErrorCode(ErrorCodes.AUDIENCE_MISSING)) {
                    return AuthFailure.AUDIENCE_MISMATCH;
                }
                if (ij.hasErrorCode(ErrorCodes.ISSUER_INVALID) || ij.hasErrorCode(ErrorCodes.ISSUER_MISSING)) {
                    return AuthFailure.ISSUER_UNTRUSTED;
                }
                if (ij.hasErrorCode(ErrorCodes.SIGNATURE_INVALID)) {
                    return AuthFailure.SIGNATURE_INVALID;
                }
                if (ij.hasErrorCode(ErrorCodes.SIGNATURE_MISSING)) {
                    return AuthFailure.ALGORITHM_REFUSED;
                }
                if (ij.hasErrorCode(ErrorCodes.NOT_YET_VALID) || ij.hasErrorCode(ErrorCodes.ISSUED_AT_INVALID_FUTURE)) {
                    return AuthFailure.TOKEN_NOT_YET_VALID;
                }
            }
            if (t instanceof UnresolvableKeyException) {
                return AuthFailure.KEY_UNKNOWN;
            }
            if (t instanceof InvalidAlgorithmException) {
                return AuthFailure.ALGORITHM_REFUSED;
            }
        }
        return AuthFailure.TOKEN_INVALID;
    }

    /** The number of public verification keys in a JWKS; refuses a set with none, or with a secret (symmetric) key. */
    private static int publicKeys(String jwks) {
        try {
            int n = 0;
            for (JsonWebKey k : new JsonWebKeySet(jwks).getJsonWebKeys()) {
                if (!(k instanceof PublicJsonWebKey)) {
                    throw new IllegalArgumentException("the key set holds a symmetric key (kty " + k.getKeyType()
                            + "): only public keys verify tokens here");
                }
                n++;
            }
            if (n == 0) {
                throw new IllegalArgumentException("the key set holds no key");
            }
            return n;
        } catch (JoseException e) {
            throw new IllegalArgumentException("not a JSON Web Key Set (RFC 7517)");
        }
    }

    private static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** smallrye's parser, with its key resolver built when the keys are taken rather than at the first request. */
    private static final class Parser extends DefaultJWTTokenParser {
        void prepare(JWTAuthContextInfo ctx) throws UnresolvableKeyException {
            getVerificationKeyResolver(ctx);
        }
    }
}
