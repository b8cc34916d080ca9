package dev.cloakgate.upstream;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What a link reports about one request while it is in flight. */
public interface RequestObserver {

    /** A request or notification the upstream tied to this request (on HTTP: sent on its response stream). */
    void related(ObjectNode message);

    /** The upstream chose to stream its answer (HTTP text/event-stream); the client's answer may stream too. */
    default void streaming() {
    }

    /** Observes nothing: related messages go to the link's general inbound handler instead. */
    RequestObserver NONE = null;
}
