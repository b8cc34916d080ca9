package dev.cloakgate.upstream;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;

/**
 * An upstream failed a request: it is down, hung, exited, expired its session or broke the protocol. The
 * message names the upstream and never carries payload text.
 */
public final class UpstreamException extends RuntimeException {

    /** Stable {@code data.reason} codes. */
    public enum Reason {
        UPSTREAM_UNAVAILABLE, UPSTREAM_TIMEOUT, UPSTREAM_EXITED, UPSTREAM_PROTOCOL_ERROR, UPSTREAM_HTTP_ERROR,
        UPSTREAM_SESSION_EXPIRED, PROTOCOL_VERSION_MISMATCH, UPSTREAM_MESSAGE_TOO_LARGE,
        // issue 16, upstream OAuth: the gateway could not get (or use) a token for the upstream
        UPSTREAM_AUTH_REQUIRED, UPSTREAM_AUTH_FAILED, UPSTREAM_RESOURCE_MISMATCH, UPSTREAM_SCOPE_REFUSED,
        UPSTREAM_AUTH_INSECURE_URL, PUBLIC_URL_REQUIRED;

        public String code() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String upstream;
    private final Reason reason;
    private final String detail;
    /** For a message over the size limit: the limit, and how many bytes of it were seen (at least). */
    private final long limit;
    private final long bytes;
    /** For the operator's log only, never a client: what a child wrote to stderr, bounded and scrubbed. */
    private final String diagnostic;

    public UpstreamException(String upstream, Reason reason, String detail) {
        this(upstream, reason, detail, 0, 0, null);
    }

    private UpstreamException(String upstream, Reason reason, String detail, long limit, long bytes, String diagnostic) {
        super("upstream '" + upstream + "' " + detail, null, false, false);
        this.upstream = upstream;
        this.reason = reason;
        this.detail = detail;
        this.limit = limit;
        this.bytes = bytes;
        this.diagnostic = diagnostic;
    }

    /** The same failure with what the operator's log may add (null or empty: nothing). */
    UpstreamException withDiagnostic(String text) {
        return new UpstreamException(upstream, reason, detail, limit, bytes, text == null || text.isEmpty() ? null : text);
    }

    /** The same failure, said again with {@code more} after its detail (its diagnostic kept). */
    public UpstreamException explained(String more) {
        return new UpstreamException(upstream, reason, detail + more, limit, bytes, diagnostic);
    }

    /** What failed, without the upstream's name: {@code exited (status 7)}. */
    public String detail() {
        return detail;
    }

    /** What the child wrote to stderr (its first lines, bounded, values replaced by their category), or null. */
    public String diagnostic() {
        return diagnostic;
    }

    /** The upstream answered with a message over {@code limit}, which was skipped unread. */
    static UpstreamException tooLarge(String upstream, MessageLimit limit, long bytes) {
        return new UpstreamException(upstream, Reason.UPSTREAM_MESSAGE_TOO_LARGE, "sent a message of at least " + bytes
                + " bytes, over the limit of " + limit.bytes() + " (" + limit.setting() + "); it was dropped unread",
                limit.bytes(), bytes, null);
    }

    /** For {@link Reason#UPSTREAM_MESSAGE_TOO_LARGE}: the bytes of the message seen before it was dropped. */
    public long bytes() {
        return bytes;
    }

    public String upstream() {
        return upstream;
    }

    public Reason reason() {
        return reason;
    }

    public RpcError toRpcError() {
        RpcError e = RpcError.of(ErrorCodes.INTERNAL_ERROR, reason.code(), getMessage()).with("upstream", upstream);
        return limit > 0 ? e.with("limit", com.fasterxml.jackson.databind.node.LongNode.valueOf(limit)) : e;
    }
}
