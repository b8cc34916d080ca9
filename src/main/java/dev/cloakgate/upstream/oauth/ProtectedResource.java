package dev.cloakgate.upstream.oauth;

import java.net.URI;
import java.util.List;

/**
 * What the upstream says of itself as an OAuth protected resource (RFC 9728), or what the 2025-03-26 fallback
 * assumes when it says nothing.
 *
 * @param resource the resource identifier sent as {@code resource} (RFC 8707)
 * @param authorizationServer the issuer the gateway asks for tokens
 * @param scopesSupported the resource's {@code scopes_supported}, empty when not given
 * @param legacy true for the 2025-03-26 fallback (no metadata: the MCP server's origin is its authorization server)
 */
public record ProtectedResource(URI resource, URI authorizationServer, List<String> scopesSupported, boolean legacy) {
    public ProtectedResource {
        scopesSupported = List.copyOf(scopesSupported);
    }
}
