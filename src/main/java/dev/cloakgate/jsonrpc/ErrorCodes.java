package dev.cloakgate.jsonrpc;

/** The JSON-RPC error codes cloakgate answers with; part of the external contract (README, DESIGN.md). */
public final class ErrorCodes {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    /** Internal errors, and every failure of an upstream ({@code data.reason} says which, {@code data.upstream} names it). */
    public static final int INTERNAL_ERROR = -32603;
    /** Refused by policy or gate; {@code data.reason} is a stable snake_case code. */
    public static final int REFUSED = -32001;
    /** An operation's state must be reconciled before it may run again; {@code data.operationId}. */
    public static final int RECONCILE = -32002;

    private ErrorCodes() {
    }
}
