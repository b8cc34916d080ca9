package dev.cloakgate.server;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Issue 16: {@code cloakgate.public-url}, parsed and normalised: an http(s) URL with a host, without user info, query
 * or fragment, scheme and host in lower case, no trailing slash. Tenant T's OAuth resource is
 * {@code <value>/t/T/mcp}.
 */
public record PublicUrl(String value) {
    /** The configured value, normalised; empty when unset; a value that is no such URL stops the start. */
    public static Optional<PublicUrl> of(Optional<String> configured) {
        return configured.filter(s -> !s.isBlank()).map(PublicUrl::parse);
    }

    static PublicUrl parse(String raw) {
        URI u;
        try {
            u = new URI(raw.strip());
        } catch (URISyntaxException e) {
            throw invalid();
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("https") || scheme.equals("http")) || u.getHost() == null || u.getRawUserInfo() != null
                || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw invalid();
        }
        String path = u.getRawPath() == null ? "" : u.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return new PublicUrl(scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + (u.getPort() < 0 ? "" : ":" + u.getPort()) + path);
    }

    private static IllegalArgumentException invalid() {
        return new IllegalArgumentException("public_url_invalid: cloakgate.public-url must be the gateway's external base"
                + " URL, http(s)://host[:port][/prefix], without user info, query or fragment");
    }
}
