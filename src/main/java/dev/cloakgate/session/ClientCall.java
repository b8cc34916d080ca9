package dev.cloakgate.session;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.upstream.Upstream;

/** One client request forwarded to one upstream: the state needed to answer, cancel and route around it. */
final class ClientCall {
    final JsonNode clientId;
    final String method;
    final Upstream upstream;
    final ClientStream stream;
    final JsonNode clientProgressToken;
    volatile JsonNode gatewayProgressToken;
    volatile Upstream.Call call;
    volatile boolean cancelled;

    ClientCall(JsonNode clientId, String method, Upstream upstream, ClientStream stream, JsonNode clientProgressToken) {
        this.clientId = clientId;
        this.method = method;
        this.upstream = upstream;
        this.stream = stream;
        this.clientProgressToken = clientProgressToken;
    }
}
