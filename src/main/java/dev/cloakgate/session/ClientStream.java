package dev.cloakgate.session;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where messages tied to one client request go before its response: the POST's own event stream. The front
 * implements it (upgrading the answer to {@code text/event-stream} on first use).
 */
public interface ClientStream {

    /** Delivers a message ahead of the response; false when this request cannot carry it (no SSE accepted). */
    boolean push(ObjectNode message);

    /** Starts streaming the answer now (when the client accepts it), before any message needs it. */
    default void open() {
    }

    /** A stream that carries nothing, for requests whose client accepts only JSON. */
    ClientStream NONE = m -> false;
}
