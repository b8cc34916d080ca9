package dev.cloakgate.session;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Where a session reports each tools/call it forwards when its tenant has no policy (a policy reports its own
 * decisions), so the evidence shows every call either way. The arguments are for binding (length and keyed
 * digest), never for keeping.
 */
@FunctionalInterface
public interface CallLog {
    void forwarded(String sessionId, String upstream, String tool, JsonNode arguments);

    CallLog NONE = (session, upstream, tool, arguments) -> {
    };
}
