package dev.cloakgate.auth;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tenant's {@code auth} block: who may call it, with which credential, in which role. Credentials are never
 * kept here: a static token is its SHA-256 (or a file to read it from), a JWT is trusted through its issuer's
 * public keys.
 *
 * @param open {@code "mode": "none"}: the MCP endpoint asks for no credential (logged as a warning at every start);
 *        principals of the other roles may still be listed, and only they reach the admin surfaces
 * @param principals by name, in file order
 * @param issuers trusted JWT issuers by the name principals refer to them with
 * @param defaults limits for principals that give none of their own
 */
public record AuthSettings(boolean open, Map<String, PrincipalSettings> principals, Map<String, IssuerSettings> issuers,
        PrincipalLimits defaults) {

    public AuthSettings {
        principals = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(principals));
        issuers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(issuers));
    }

    /** {@code "auth": {"mode": "none"}} with nobody else: anyone is an agent, nobody is anything more. */
    public static AuthSettings none() {
        return new AuthSettings(true, Map.of(), Map.of(), PrincipalLimits.NONE);
    }

    /**
     * One principal.
     *
     * @param tools exposed tool names it may see and call; null means every tool
     * @param tokenSha256 lower-case hex SHA-256 of each static bearer token
     * @param tokenFile a file holding one static token (a mounted Secret), read at start and again when it changes
     * @param jwt the JWT identity that maps to this principal, or null
     */
    public record PrincipalSettings(String name, Set<Role> roles, Set<String> tools, List<String> tokenSha256,
            Path tokenFile, JwtIdentity jwt, PrincipalLimits limits) {
        public PrincipalSettings {
            roles = Set.copyOf(roles);
            tools = tools == null ? null : Set.copyOf(tools);
            tokenSha256 = List.copyOf(tokenSha256);
        }
    }

    /** A JWT from {@code issuer} (a name under {@code jwt_issuers}) whose principal claim equals {@code subject}. */
    public record JwtIdentity(String issuer, String subject) {
    }

    /**
     * A trusted JWT issuer (a Kubernetes API server for projected service-account tokens, or any OIDC provider).
     *
     * @param issuer the exact {@code iss} its tokens carry
     * @param audiences a token must name at least one of them in {@code aud}
     * @param jwksFile the issuer's JWKS as a file (re-read when it changes), or null
     * @param jwksUrl the issuer's JWKS fetched over HTTPS (or HTTP to a loopback address), or null
     * @param jwksCaFile PEM certificates that the JWKS URL's server certificate must chain to, or null for the JDK's
     * @param jwksTokenFile a bearer token sent with the fetch (the gateway's own service-account token), or null
     * @param refresh how often the URL is fetched again
     * @param fetchTimeout the longest one fetch may take, connect included
     * @param principalClaim the claim whose value names the principal ({@code sub})
     * @param clockSkew tolerance on {@code exp}, {@code nbf} and {@code iat}
     */
    public record IssuerSettings(String name, String issuer, List<String> audiences, Path jwksFile, URI jwksUrl,
            Path jwksCaFile, Path jwksTokenFile, Duration refresh, Duration fetchTimeout, String principalClaim,
            Duration clockSkew) {
        public static final Duration DEFAULT_REFRESH = Duration.ofMinutes(5);
        public static final Duration DEFAULT_FETCH_TIMEOUT = Duration.ofSeconds(5);
        public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(30);

        public IssuerSettings {
            audiences = List.copyOf(audiences);
        }
    }
}
