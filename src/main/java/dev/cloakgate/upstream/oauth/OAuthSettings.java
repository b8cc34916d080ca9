package dev.cloakgate.upstream.oauth;

import java.nio.file.Path;

/**
 * An HTTP upstream's {@code oauth} block, as the operator wrote it: how the gateway, as an OAuth client, gets a
 * token for that upstream. Secrets are never held here, only where to read them (a mounted file) or the value of
 * an {@code ${env:...}} expansion, read when a token is requested.
 *
 * @param tenant the tenant whose file declares it (binds a connection and its stored secrets to one upstream)
 * @param upstream the upstream's name in that file
 * @param grant how a token is obtained
 * @param clientId a pre-registered client id, or null (then a Client ID Metadata Document or dynamic registration)
 * @param clientSecret the pre-registered client's secret from the environment, or null
 * @param clientSecretFile a file holding it (a mounted Secret), or null
 * @param privateKeyFile a PKCS#8 PEM private key for {@code private_key_jwt}, or null
 * @param tokenEndpointAuth the client authentication at the token endpoint, or null (chosen from what the
 *        authorization server supports and what the client has)
 * @param scope scopes to request instead of what the upstream's challenge or metadata says, or null
 * @param crossApp with {@link Grant#CROSS_APP_ACCESS}: the enterprise identity provider's side, else null
 */
public record OAuthSettings(String tenant, String upstream, Grant grant, String clientId, String clientSecret,
        Path clientSecretFile, Path privateKeyFile, String tokenEndpointAuth, String scope, CrossApp crossApp) {

    /**
     * Cross-app access (SEP-990, Enterprise-Managed Authorization): the gateway holds an ID token from the
     * enterprise's identity provider, exchanges it there (RFC 8693) for an identity assertion grant (ID-JAG) naming
     * the upstream's authorization server and resource, and presents that as a JWT bearer grant (RFC 7523).
     *
     * @param idTokenFile a file holding the ID token (a mounted Secret, read at each exchange, so a rotated one works)
     * @param tokenEndpoint the identity provider's token endpoint (https, or http to a loopback address)
     * @param clientId the gateway's client id at the identity provider, or null
     */
    public record CrossApp(Path idTokenFile, String tokenEndpoint, String clientId) {
    }

    /** The OAuth grant the gateway uses toward the upstream. */
    public enum Grant {
        /** The gateway is the resource owner (RFC 6749 §4.4): no operator step. */
        CLIENT_CREDENTIALS,
        /** An operator authorizes once through the admin API; the gateway keeps the refresh token. */
        AUTHORIZATION_CODE,
        /** The enterprise's identity provider vouches for the gateway (SEP-990): no operator step either. */
        CROSS_APP_ACCESS;

        /** A grant the gateway completes alone, whenever it needs a token (no operator connects it). */
        public boolean unattended() {
            return this != AUTHORIZATION_CODE;
        }

        public String code() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The token endpoint authentication methods the gateway speaks. */
    public static final java.util.Set<String> AUTH_METHODS = java.util.Set.of("client_secret_basic",
            "client_secret_post", "none", "private_key_jwt");

    /** For logs and errors: {@code tenant/upstream}. */
    public String label() {
        return tenant + "/" + upstream;
    }
}
