package dev.cloakgate.upstream;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What a link reports about one request while it is in flight. */
public interface RequestObserver {

    /** A request or notification the upstream tied to this request (on HTTP: sent on its response stream). */
    void related(ObjectNode message);

    /** The upstream paused its streamed answer, to resume it later; the client's answer should stream meanwhile. */
    default void streaming() {
    }

    /** Observes nothing: related messages go to the link's general inbound handler instead. */
    RequestObserver NONE = null;
}
