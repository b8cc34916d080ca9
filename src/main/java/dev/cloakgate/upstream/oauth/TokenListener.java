package dev.cloakgate.upstream.oauth;

import java.net.URI;
import java.time.Instant;

/** Told of each token the gateway obtains for an upstream, for the ledger: never the token itself. */
@FunctionalInterface
public interface TokenListener {
    TokenListener NONE = (settings, grant, scope, expiresAt, issuer) -> {
    };

    /**
     * @param grant {@code client_credentials}, {@code authorization_code} or {@code refresh_token}
     * @param scope the granted scope, or null
     * @param expiresAt null when the server did not say
     */
    void obtained(OAuthSettings settings, String grant, String scope, Instant expiresAt, URI issuer);
}
