package dev.cloakgate.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What travels back along the chain: a JSON-RPC response ({@code result} or {@code error}) and where it came from,
 * which says whether a stage on the way back may touch it. The session answers the client with its {@code result}
 * or {@code error} under the client's own id, whatever id the response carries.
 */
public record Reply(Kind kind, ObjectNode response) {
    public enum Kind {
        /** The upstream's answer: the response stages judge it and the cloak walks it. */
        UPSTREAM,
        /** Made by a stage that ended the call: no later stage touches it (it is neither judged nor cloaked). */
        REFUSAL,
        /** A stored answer, judged and cloaked when it was first given (the operations store): passes back untouched. */
        REPLAY
    }

    public Reply {
        if (kind == null || response == null) {
            throw new IllegalArgumentException("a reply has a kind and a response");
        }
    }

    public static Reply upstream(ObjectNode response) {
        return new Reply(Kind.UPSTREAM, response);
    }

    public static Reply refusal(ObjectNode response) {
        return new Reply(Kind.REFUSAL, response);
    }

    public static Reply replay(ObjectNode response) {
        return new Reply(Kind.REPLAY, response);
    }

    /** Came from the upstream on this call: the only kind a stage on the way back judges or changes. */
    public boolean fromUpstream() {
        return kind == Kind.UPSTREAM;
    }

    /** The same kind of reply with another response (a redacted result, a refusal standing in for it). */
    public Reply with(ObjectNode other) {
        return new Reply(kind, other);
    }

    public boolean isError() {
        return response.has("error");
    }

    /** The error object of an error response, else the result (null when the response has neither). */
    public JsonNode payload() {
        return isError() ? response.get("error") : response.get("result");
    }
}
