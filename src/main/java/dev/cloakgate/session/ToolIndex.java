package dev.cloakgate.session;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.cloakgate.upstream.UpstreamException;

/**
 * The tool names each upstream declared in this session, from a complete listing (every page): what tells a call
 * to a name nobody declared ({@code unknown_tool}) from a call to a tool of an upstream that could not be listed
 * (refused with that upstream's own failure), with or without a policy. Forgotten when the upstream says its list
 * changed.
 */
final class ToolIndex {

    /**
     * What a call learns before it is forwarded: the declared names, or the failure that kept the upstream from
     * saying; neither when its listing was incomplete or answered with an error (the call then goes on).
     */
    record Lookup(Set<String> names, UpstreamException failure) {
        static final Lookup UNKNOWN = new Lookup(null, null);
    }

    private final Map<String, Set<String>> complete = new ConcurrentHashMap<>();

    void listed(String upstream, Set<String> names) {
        complete.put(upstream, Set.copyOf(names));
    }

    /** The names {@code upstream} declared, or null when no complete listing is known. */
    Set<String> names(String upstream) {
        return complete.get(upstream);
    }

    void forget(String upstream) {
        complete.remove(upstream);
    }
}
