package dev.cloakgate.upstream;

import java.util.function.Consumer;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;

/**
 * What a link does with a message over its limit, once a {@link MessageScan} has seen enough of it: the request
 * it answers fails at once with {@code upstream_message_too_large} (instead of waiting for the request timeout), a
 * request the upstream made is refused back to it, anything else is dropped. Logged by size, never by content.
 */
final class Oversized {
    private static final Logger LOG = Logger.getLogger(Oversized.class);

    private final String upstream;
    private final String label;
    private final MessageLimit limit;
    private final PendingTable pending;
    private final Consumer<ObjectNode> reply;

    Oversized(String upstream, String label, MessageLimit limit, PendingTable pending, Consumer<ObjectNode> reply) {
        this.upstream = upstream;
        this.label = label;
        this.limit = limit;
        this.pending = pending;
        this.reply = reply;
    }

    MessageLimit limit() {
        return limit;
    }

    UpstreamException error(long bytes) {
        return UpstreamException.tooLarge(upstream, limit, bytes);
    }

    /** Acts on the scan once (later calls for the same scan do nothing). */
    void handle(MessageScan scan) {
        if (!scan.report()) {
            return;
        }
        JsonNode id = scan.id();
        MessageScan.Kind kind = scan.kind();
        LOG.warnf("upstream %s: dropped a %s of at least %d bytes, over the limit of %d", label,
                kind.name().toLowerCase(java.util.Locale.ROOT), scan.bytes(), limit.bytes());
        if (kind == MessageScan.Kind.RESPONSE && id != null && id.canConvertToLong()) {
            PendingTable.Entry e = pending.get(id.asLong());
            if (e != null) {
                e.response().completeExceptionally(error(scan.bytes()));
            }
        } else if (kind == MessageScan.Kind.REQUEST && id != null) {
            reply.accept(RpcError.of(ErrorCodes.INVALID_REQUEST, "request of at least " + scan.bytes()
                    + " bytes is over the gateway's limit of " + limit.bytes()).toResponse(id));
        }
    }
}
