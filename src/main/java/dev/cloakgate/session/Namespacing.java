package dev.cloakgate.session;

import java.util.Set;

import dev.cloakgate.tenant.Namespace;

/**
 * Maps tool and prompt names between the client's view and each upstream's. With {@code prefix}, names appear
 * as {@code {upstream}__{name}} and are split on the first {@code __}; upstream names hold no {@code _}, so
 * {@code fs__read__all} can only be {@code read__all} on {@code fs}.
 */
public final class Namespacing {
    public static final String SEPARATOR = "__";

    /** A name resolved to the upstream that owns it and the name that upstream knows. */
    public record Route(String upstream, String name) {
    }

    private final Namespace mode;
    private final Set<String> upstreams;
    private final String only;

    public Namespacing(Namespace mode, Set<String> upstreams) {
        this.mode = mode;
        this.upstreams = Set.copyOf(upstreams);
        this.only = upstreams.size() == 1 ? upstreams.iterator().next() : null;
        if (mode == Namespace.NONE && only == null) {
            throw new IllegalArgumentException("namespace none needs exactly one upstream");
        }
    }

    public String expose(String upstream, String name) {
        return mode == Namespace.PREFIX ? upstream + SEPARATOR + name : name;
    }

    /** The route for a name the client used, or null when no upstream owns it. */
    public Route route(String exposed) {
        if (exposed == null) {
            return null;
        }
        if (mode == Namespace.NONE) {
            return new Route(only, exposed);
        }
        int i = exposed.indexOf(SEPARATOR);
        if (i <= 0 || i + SEPARATOR.length() >= exposed.length()) {
            return null;
        }
        String upstream = exposed.substring(0, i);
        return upstreams.contains(upstream) ? new Route(upstream, exposed.substring(i + SEPARATOR.length())) : null;
    }
}
