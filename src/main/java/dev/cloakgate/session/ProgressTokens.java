package dev.cloakgate.session;

import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;

import dev.cloakgate.upstream.Upstream;

/**
 * Progress tokens are replaced by gateway-issued ones in both directions, so a token one party chose can never
 * be mistaken for another's, and progress always reaches the request it belongs to under its owner's token.
 */
final class ProgressTokens {

    /** A token an upstream put on a request to the client. */
    record UpstreamToken(Upstream upstream, JsonNode token) {
    }

    private final Map<Long, ClientCall> clientTokens = new HashMap<>();
    private final Map<Long, UpstreamToken> upstreamTokens = new HashMap<>();
    private long next;

    synchronized JsonNode forClientCall(ClientCall call) {
        long t = ++next;
        clientTokens.put(t, call);
        return LongNode.valueOf(t);
    }

    synchronized JsonNode forUpstream(Upstream upstream, JsonNode token) {
        long t = ++next;
        upstreamTokens.put(t, new UpstreamToken(upstream, token));
        return LongNode.valueOf(t);
    }

    synchronized ClientCall clientCall(JsonNode gatewayToken) {
        return gatewayToken != null && gatewayToken.isIntegralNumber() ? clientTokens.get(gatewayToken.asLong()) : null;
    }

    synchronized UpstreamToken upstreamToken(JsonNode gatewayToken) {
        return gatewayToken != null && gatewayToken.isIntegralNumber() ? upstreamTokens.get(gatewayToken.asLong())
                : null;
    }

    /** Forgets a gateway token once its request is answered (either direction). */
    synchronized void release(JsonNode gatewayToken) {
        if (gatewayToken != null && gatewayToken.isIntegralNumber()) {
            clientTokens.remove(gatewayToken.asLong());
            upstreamTokens.remove(gatewayToken.asLong());
        }
    }
}
