package dev.cloakgate.net;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Well-known URIs (RFC 8615) both sides of the gateway's OAuth look up. */
public final class WellKnown {
    private WellKnown() {
    }

    /**
     * Where an authorization server's metadata may be, in the order the MCP authorization specification has clients
     * try them: RFC 8414's {@code oauth-authorization-server} by path insertion, then OpenID Connect discovery
     * inserted, then appended (for an issuer without a path, the two root URLs).
     */
    public static List<URI> authorizationServerMetadata(URI issuer) {
        String origin = issuer.getScheme() + "://" + issuer.getRawAuthority();
        String path = issuer.getRawPath() == null ? "" : issuer.getRawPath();
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        Set<URI> out = new LinkedHashSet<>();
        out.add(URI.create(origin + "/.well-known/oauth-authorization-server" + path));
        out.add(URI.create(origin + "/.well-known/openid-configuration" + path));
        out.add(URI.create(origin + path + "/.well-known/openid-configuration"));
        return List.copyOf(out);
    }
}
