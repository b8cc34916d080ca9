package dev.cloakgate.session;

import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.upstream.Upstream;

/**
 * Requests upstreams made of the client (sampling, elicitation, roots, ping), under gateway-issued ids so two
 * upstreams that both use id 1 never collide; the client's answer goes back under the upstream's own id.
 */
final class ServerRequests {

    /** {@code progressToken} is the gateway token that replaced the upstream's, or null. */
    record Entry(long gatewayId, Upstream upstream, JsonNode upstreamId, JsonNode progressToken) {
    }

    private final Map<Long, Entry> byGatewayId = new HashMap<>();
    private final Map<String, Long> byUpstreamId = new HashMap<>();
    private long next;

    synchronized long nextId() {
        return ++next;
    }

    synchronized Entry register(long gatewayId, Upstream upstream, JsonNode upstreamId, JsonNode progressToken) {
        Entry e = new Entry(gatewayId, upstream, upstreamId, progressToken);
        byGatewayId.put(e.gatewayId, e);
        byUpstreamId.put(key(upstream, upstreamId), e.gatewayId);
        return e;
    }

    /** Removes and returns the request a client answer refers to, or null. */
    synchronized Entry take(JsonNode gatewayId) {
        if (gatewayId == null || !gatewayId.canConvertToLong() || !gatewayId.isIntegralNumber()) {
            return null;
        }
        Entry e = byGatewayId.remove(gatewayId.asLong());
        if (e != null) {
            byUpstreamId.remove(key(e.upstream, e.upstreamId));
        }
        return e;
    }

    /** The gateway id of an upstream's pending request (for its cancellation), removing it; or null. */
    synchronized Long takeByUpstreamId(Upstream upstream, JsonNode upstreamId) {
        Long g = byUpstreamId.remove(key(upstream, upstreamId));
        if (g != null) {
            byGatewayId.remove(g);
        }
        return g;
    }

    synchronized void forget(Upstream upstream) {
        byGatewayId.values().removeIf(e -> e.upstream == upstream);
        byUpstreamId.keySet().removeIf(k -> k.startsWith(upstream.name() + "\u0000"));
    }

    private static String key(Upstream upstream, JsonNode id) {
        // the JSON text keeps "1" and 1 apart, as JSON-RPC requires
        return upstream.name() + "\u0000" + id.toString();
    }
}
