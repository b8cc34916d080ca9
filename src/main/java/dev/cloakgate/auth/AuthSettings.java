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
        PrincipalLimits defaults, OAuthSettings oauth) {

    public AuthSettings {
        principals = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(principals));
        issuers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(issuers));
    }

    /** Without an OAuth protected resource. */
    public AuthSettings(boolean open, Map<String, PrincipalSettings> principals, Map<String, IssuerSettings> issuers,
            PrincipalLimits defaults) {
        this(open, principals, issuers, defaults, null);
    }

    /**
     * Issue 16: the tenant's MCP endpoint as an OAuth 2.1 protected resource ({@code auth.oauth}). Any subject of one
     * of the authorization servers whose access token is a JWT for this tenant's resource ({@code aud}) and carries a
     * role's scopes is a principal of this tenant: {@code principal} named after the template and a digest of the
     * issuer and subject, so that each subject is metered, bound to its sessions and recorded apart, never by its
     * subject (often an e-mail address).
     *
     * @param servers the authorization servers by name; their {@code audiences} are empty here (the resource,
     *        {@code <public-url>/t/<tenant>/mcp}, is known only to the gateway); neither {@code jwksFile} nor
     *        {@code jwksUrl}: the keys are found from the server's RFC 8414 metadata
     * @param scopesSupported what the resource metadata publishes
     * @param roleScopes the scopes a token must carry, all of them, for each role it may act in ({@code agent} at least)
     * @param principal the name the template's principals are derived from
     * @param tools exposed tool names these principals may see and call; null means all
     */
    public record OAuthSettings(Map<String, IssuerSettings> servers, List<String> scopesSupported,
            Map<Role, List<String>> roleScopes, String principal, Set<String> tools, PrincipalLimits limits) {
        public OAuthSettings {
            servers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(servers));
            scopesSupported = List.copyOf(scopesSupported);
            roleScopes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(roleScopes));
            tools = tools == null ? null : Set.copyOf(tools);
        }
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
     * @param jwksUrl the issuer's JWKS fetched over HTTPS (or HTTP to a loopback address), or null; with neither
     *        (an OAuth authorization server only), the {@code jwks_uri} of the issuer's RFC 8414 metadata
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

        /** The same issuer, its tokens accepted only for these audiences. */
        public IssuerSettings forAudiences(List<String> only) {
            return new IssuerSettings(name, issuer, only, jwksFile, jwksUrl, jwksCaFile, jwksTokenFile, refresh,
                    fetchTimeout, principalClaim, clockSkew);
        }
    }
}
