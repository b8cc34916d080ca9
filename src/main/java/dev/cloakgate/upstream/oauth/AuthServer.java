package dev.cloakgate.upstream.oauth;

import java.net.URI;
import java.util.List;

/**
 * An authorization server's metadata (RFC 8414 / OpenID Connect Discovery), the parts the gateway uses.
 *
 * @param issuer its issuer identifier
 * @param authorizationEndpoint null when it has none (a client-credentials-only server)
 * @param registrationEndpoint null when it offers no dynamic registration
 * @param authMethods {@code token_endpoint_auth_methods_supported}, empty when not given
 * @param clientIdMetadataDocuments it accepts a URL as {@code client_id} (Client ID Metadata Documents)
 */
public record AuthServer(URI issuer, URI authorizationEndpoint, URI tokenEndpoint, URI registrationEndpoint,
        List<String> scopesSupported, List<String> authMethods, boolean clientIdMetadataDocuments) {
    public AuthServer {
        scopesSupported = List.copyOf(scopesSupported);
        authMethods = List.copyOf(authMethods);
    }
}
