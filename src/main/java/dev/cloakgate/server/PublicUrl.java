package dev.cloakgate.server;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * {@code cloakgate.public-url}: the gateway's external base URL, parsed and normalised (scheme and host in lower
 * case, no query, fragment or user info, no trailing slash). Never derived from a request's {@code Host}.
 */
public record PublicUrl(URI uri) {

    /** The configured value, or empty when unset; an invalid one stops the start with {@code invalid_public_url}. */
    public static Optional<PublicUrl> of(Optional<String> configured) {
        return configured.map(String::strip).filter(v -> !v.isEmpty()).map(PublicUrl::parse);
    }

    static PublicUrl parse(String raw) {
        URI u;
        try {
            u = new URI(raw);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("invalid_public_url: cloakgate.public-url is not a URL");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!(scheme.equals("https") || scheme.equals("http")) || u.getHost() == null || u.getRawUserInfo() != null
                || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new IllegalArgumentException("invalid_public_url: cloakgate.public-url must be an http(s) URL with a"
                    + " host and no user info, query or fragment");
        }
        String path = u.getRawPath() == null ? "" : u.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return new PublicUrl(URI.create(scheme + "://" + u.getRawAuthority().toLowerCase(java.util.Locale.ROOT) + path));
    }

    @Override
    public String toString() {
        return uri.toString();
    }
}
