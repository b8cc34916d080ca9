package dev.cloakgate.store;

/**
 * The operations store refused a request on an operation (not a storage failure): {@link #code()} is a stable
 * snake_case code, the message says what to do. Carries no stack trace: it is an answer, not a fault.
 */
public final class OperationRefusedException extends RuntimeException {
    /** No operation has this id. */
    public static final String NOT_FOUND = "operation_not_found";
    /** Reconcile asked of an operation that is not {@code unknown} (an {@code in_flight} one needs force). */
    public static final String NOT_UNKNOWN = "operation_not_unknown";
    /** The operation id is stored for another tool or upstream: two calls share an id, so neither may use it. */
    public static final String ID_CONFLICT = "operation_id_conflict";

    private final String code;
    private final String operationId;
    private final OperationState state;

    public OperationRefusedException(String code, String operationId, OperationState state, String message) {
        super(message, null, false, false);
        this.code = code;
        this.operationId = operationId;
        this.state = state;
    }

    public String code() {
        return code;
    }

    public String operationId() {
        return operationId;
    }

    /** The operation's state when refused, null when there is no such operation. */
    public OperationState state() {
        return state;
    }
}
