package dev.cloakgate.upstream;

import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One live connection to one upstream MCP server: a child process or an HTTP session. It moves messages and
 * issues the ids of the requests it sends; it knows nothing of clients, tenants or policy.
 */
public interface UpstreamLink {

    /**
     * A request this link sent: the id it was sent under, its eventual response message, and {@code sent}, which
     * completes once the request was written to the upstream (never, when it could not be).
     */
    record Pending(long id, CompletableFuture<ObjectNode> response, CompletableFuture<Void> sent) {
    }

    /** Receives what the upstream sends unprompted (requests and notifications), and the link's end. */
    interface Inbound {
        void onMessage(ObjectNode message);

        void onClosed(UpstreamException why);
    }

    /** Starts the process or checks nothing for HTTP; completes when messages can be sent. */
    CompletableFuture<Void> open();

    /**
     * Sends a request under a fresh id. Messages the upstream ties to this request (on HTTP, those on its
     * response stream) go to {@code related} when it is not null, else to {@link Inbound}.
     */
    Pending request(String method, JsonNode params, RequestObserver related);

    /** Sends a notification or a response. */
    void send(ObjectNode message);

    /** The handshake is done under this protocol version (HTTP starts its GET stream here). */
    void initialized(String protocolVersion);

    /** Completes once the link is gone, with the reason. */
    CompletableFuture<UpstreamException> closed();

    void close();
}
