package dev.cloakgate.upstream;

import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.Messages;

/** What the HTTP transports share: every message is POSTed, in {@link PostOrder}, under the ids this link issues. */
abstract class PostingLink implements UpstreamLink {
    final PendingTable pending = new PendingTable();
    final CompletableFuture<UpstreamException> closed = new CompletableFuture<>();
    private final PostOrder order = new PostOrder();

    /** POSTs one message ({@code entry} null for a notification or response); completes when its exchange is over. */
    abstract CompletableFuture<Void> post(ObjectNode message, PendingTable.Entry entry);

    /** Who hears the messages the upstream ties to a request: {@code related}, where the transport says which. */
    abstract RequestObserver observer(RequestObserver related);

    /** Writes a POST's body; the request it carries (if any) counts as sent once it was written. */
    static io.vertx.core.Future<io.vertx.core.http.HttpClientResponse> send(io.vertx.core.http.HttpClientRequest req,
            byte[] body, PendingTable.Entry entry) {
        return send(req, body, entry, null);
    }

    /** As {@link #send(io.vertx.core.http.HttpClientRequest, byte[], PendingTable.Entry)}; {@code written} runs too. */
    static io.vertx.core.Future<io.vertx.core.http.HttpClientResponse> send(io.vertx.core.http.HttpClientRequest req,
            byte[] body, PendingTable.Entry entry, Runnable written) {
        req.end(io.vertx.core.buffer.Buffer.buffer(body)).onSuccess(v -> {
            if (entry != null) {
                entry.sent().complete(null);
            }
            if (written != null) {
                written.run();
            }
        });
        return req.response();
    }

    @Override
    public final Pending request(String method, JsonNode params, RequestObserver related) {
        PendingTable.Entry e = pending.open(observer(related));
        if (closed.isDone()) {
            e.response().completeExceptionally(closed.join());
        } else {
            ObjectNode message = Messages.request(LongNode.valueOf(e.id()), method, params);
            order.request(() -> post(message, e));
        }
        return e.pending();
    }

    @Override
    public final void send(ObjectNode message) {
        if (!closed.isDone()) {
            order.notification(() -> post(message, null));
        }
    }

    @Override
    public final CompletableFuture<UpstreamException> closed() {
        return closed;
    }
}
