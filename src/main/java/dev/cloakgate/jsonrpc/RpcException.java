package dev.cloakgate.jsonrpc;

/** Carries an {@link RpcError} through futures and call stacks to the point that answers the client. */
public final class RpcException extends RuntimeException {
    private final transient RpcError error;

    public RpcException(RpcError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public RpcError error() {
        return error;
    }
}
