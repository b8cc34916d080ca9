package dev.cloakgate.policy;

import java.io.IOException;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The hash of each tool's definition (name, title, description, inputSchema, annotations) as first seen by a tenant,
 * with the definition itself, and the pending definition of a tool whose definition changed: a rug pull until an
 * operator accepts it ({@code pins accept}), the tool quarantined meanwhile. Implementations: {@link FilePinStore}
 * ({@code {data-dir}/pins/{tenant}.json}, one process) and {@link PostgresPinStore} (issue 17: shared by the replicas,
 * so a pin accepted through one replica takes effect on every replica). Both apply {@link PinRules}.
 */
public interface PinStore {
    /** What a definition is compared with its pin. */
    public enum Check {
        PINNED_NOW, SAME, CHANGED
    }

    /**
     * A pinned tool. {@code definition}: what was pinned (null for a version 1 pin not seen since); {@code pending}
     * and {@code pendingDefinition}: the changed definition awaiting an operator, or null.
     */
    public record Pin(String tool, String sha256, String pinnedAt, String pending, JsonNode definition,
            JsonNode pendingDefinition) {
        public Pin(String tool, String sha256, String pinnedAt, String pending) {
            this(tool, sha256, pinnedAt, pending, null, null);
        }

        /** The upstream's name: the part before the first {@code /} of {@code upstream/tool}. */
        public String upstream() {
            return tool.substring(0, tool.indexOf('/'));
        }

        /** The tool's name as its upstream declares it. */
        public String name() {
            return tool.substring(tool.indexOf('/') + 1);
        }
    }

    /**
     * A definition as seen: its hash, the hash version 1 pinned it by (for carrying old pins over), and the
     * definition itself (what {@code pins diff} shows).
     */
    public record Seen(String sha256, String legacySha256, JsonNode definition) {
    }

    String tenant();

    /** Where the pins are kept, for messages (a file, or the database). */
    String where();

    /** Compares (and on first sight pins) {@code upstream/tool} with {@code sha256}, no definition kept. */
    default Check check(String upstream, String tool, String sha256) throws IOException {
        return check(upstream, tool, new Seen(sha256, null, null));
    }

    /** Compares (and on first sight pins) {@code upstream/tool} with the definition {@code seen}. */
    Check check(String upstream, String tool, Seen seen) throws IOException;

    /** The pin of {@code upstream/tool}, or null. */
    Pin pin(String key) throws IOException;

    /** Accepts {@code sha256} as the definition of {@code upstream/tool}; false when it is not the pending one. */
    default boolean accept(String key, String sha256) throws IOException {
        return acceptAll(Map.of(key, sha256)).contains(key);
    }

    /**
     * Accepts each {@code upstream/tool -> pending hash} given, in one locked change: the definitions an operator
     * was shown, and no other (a tool whose pending definition changed since is left quarantined). Returns the tools
     * accepted.
     */
    java.util.Set<String> acceptAll(Map<String, String> reviewed) throws IOException;

    /** Every pin, in the store's order. */
    Map<String, Pin> all() throws IOException;
}
