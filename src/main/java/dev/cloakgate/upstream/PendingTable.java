package dev.cloakgate.upstream;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.Messages;

/** Requests a link has sent and not yet seen answered, under the ids the link itself issued. */
final class PendingTable {
    private static final Logger LOG = Logger.getLogger(PendingTable.class);

    /** One request in flight; {@code related} receives messages the upstream ties to it (may be null). */
    record Entry(long id, CompletableFuture<ObjectNode> response, RequestObserver related, CompletableFuture<Void> sent) {
        UpstreamLink.Pending pending() {
            return new UpstreamLink.Pending(id, response, sent);
        }
    }

    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Entry> pending = new ConcurrentHashMap<>();

    Entry open(RequestObserver related) {
        long id = ids.incrementAndGet();
        Entry e = new Entry(id, new CompletableFuture<>(), related, new CompletableFuture<>());
        pending.put(id, e);
        e.response().whenComplete((r, t) -> pending.remove(id));
        return e;
    }

    Entry get(long id) {
        return pending.get(id);
    }

    /** Completes the request the response answers; false when no such request is pending. */
    boolean complete(ObjectNode response) {
        JsonNode id = response.get("id");
        if (id == null || !id.canConvertToLong()) {
            return false;
        }
        Entry e = pending.get(id.asLong());
        if (e == null) {
            return false;
        }
        return e.response().complete(response);
    }

    /**
     * One parsed message from the upstream: a response completes the request it answers; a request or a
     * notification goes to {@code other}; anything else is ignored.
     */
    void dispatch(JsonNode msg, String label, java.util.function.Consumer<ObjectNode> other) {
        if (!(msg instanceof ObjectNode o)) {
            LOG.debugf("upstream %s: ignored a non-object message", label);
        } else if (Messages.isResponse(o)) {
            if (!complete(o)) {
                LOG.debugf("upstream %s: response to an unknown or finished request", label);
            }
        } else if (o.has("method")) {
            other.accept(o);
        }
    }

    void failAll(RuntimeException cause) {
        for (Entry e : pending.values()) {
            e.response().completeExceptionally(cause);
        }
    }

    int size() {
        return pending.size();
    }
}
