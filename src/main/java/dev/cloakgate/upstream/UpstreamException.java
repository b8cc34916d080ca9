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
        UPSTREAM_SESSION_EXPIRED, PROTOCOL_VERSION_MISMATCH;

        public String code() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String upstream;
    private final Reason reason;

    public UpstreamException(String upstream, Reason reason, String detail) {
        super("upstream '" + upstream + "' " + detail, null, false, false);
        this.upstream = upstream;
        this.reason = reason;
    }

    public String upstream() {
        return upstream;
    }

    public Reason reason() {
        return reason;
    }

    public RpcError toRpcError() {
        return RpcError.of(ErrorCodes.INTERNAL_ERROR, reason.code(), getMessage()).with("upstream", upstream);
    }
}
