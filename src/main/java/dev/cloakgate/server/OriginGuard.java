package dev.cloakgate.server;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DNS-rebinding defence: a browser page on evil.example that resolves to this host sends its own Origin, which
 * is refused. Requests without an Origin (non-browser clients) pass; localhost origins always pass.
 */
public final class OriginGuard {
    private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");
    private final Set<String> allowed;
    private final boolean any;

    public OriginGuard(List<String> configured) {
        this.any = configured.contains("*");
        this.allowed = Set.copyOf(configured.stream().map(OriginGuard::normalise).toList());
    }

    public boolean allows(String origin) {
        if (origin == null || any) {
            return true;
        }
        String o = normalise(origin);
        if (allowed.contains(o)) {
            return true;
        }
        try {
            URI u = new URI(o);
            String scheme = u.getScheme();
            return ("http".equals(scheme) || "https".equals(scheme)) && u.getHost() != null
                    && LOCAL_HOSTS.contains(u.getHost().toLowerCase(Locale.ROOT)) && u.getRawPath().isEmpty();
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static String normalise(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }
}
