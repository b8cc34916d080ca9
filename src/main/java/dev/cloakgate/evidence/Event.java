package dev.cloakgate.evidence;

import java.util.Map;
import java.util.Set;

/**
 * A decision or observation worth keeping as evidence. Events carry names, categories and counts: never a
 * payload, a detected value or a hash of one.
 */
public sealed interface Event {

    String tenant();

    /** Values of an upstream's answer were cloaked before the agent saw them. */
    record Cloaked(String tenant, String session, String upstream, String method, Map<String, Integer> categories,
            Map<String, Integer> tripwire) implements Event {
    }

    /** A token issued for one upstream's data was restored into a call to another. */
    record CrossUpstreamRestore(String tenant, String session, Set<String> from, String to, String tool,
            String category, boolean refused) implements Event {
    }

    /** The model wrote PII itself (not a token) into a call; reported, not blocked. */
    record RawPiiWritten(String tenant, String session, String upstream, String tool, Map<String, Integer> categories)
            implements Event {
    }
}
