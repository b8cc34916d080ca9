package dev.cloakgate.store;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The rules every {@link OperationStore} applies the same way, whatever holds its rows: which ids, outcomes and
 * reconciliations are accepted, and the refusals that say so.
 */
final class OperationRules {
    private OperationRules() {
    }

    static void checkId(String operationId) {
        if (!Operation.validId(operationId)) {
            throw new IllegalArgumentException("an operation id is 1-128 of [A-Za-z0-9._:-], starting alphanumeric");
        }
    }

    static void checkTenant(String storeTenant, OperationStore.Start start) {
        if (!storeTenant.equals(start.tenant())) {
            throw new IllegalArgumentException("an operation of tenant '" + start.tenant() + "' given to the store of '" + storeTenant + "'");
        }
    }

    /** A begin of {@code start} on a stored row of {@code storedTool}: the id names one call. */
    static void checkSameTool(String operationId, String storedTool, OperationState stored, OperationStore.Start start) {
        if (!storedTool.equals(start.tool())) {
            throw new OperationRefusedException(OperationRefusedException.ID_CONFLICT, operationId, stored,
                    "operation " + operationId + " is stored for another tool; an operation id names one call, so give this"
                            + " call's approval its own operation id");
        }
    }

    /** A settle is done (with the result to replay) or failed. */
    static void checkSettle(OperationState outcome, JsonNode cloakedResult) {
        if (outcome != OperationState.DONE && outcome != OperationState.FAILED) {
            throw new IllegalArgumentException("an operation is settled as done or failed, not " + outcome);
        }
        if (outcome == OperationState.DONE && cloakedResult == null) {
            throw new IllegalArgumentException("a done operation keeps its result for replay; settle it with the result");
        }
    }

    static void checkByWhom(String byWhom) {
        if (byWhom == null || byWhom.isBlank()) {
            throw new IllegalArgumentException("a reconciliation names the operator who made it");
        }
    }

    /** Only an unknown operation is reconciled, or an in_flight one with force. */
    static void checkReconcilable(String operationId, OperationState state, boolean force) {
        if (state == OperationState.IN_FLIGHT && !force) {
            throw new OperationRefusedException(OperationRefusedException.NOT_UNKNOWN, operationId, state, "operation "
                    + operationId + " is in_flight: the call may still be running; check the real system, then reconcile with --force");
        }
        if (state != OperationState.IN_FLIGHT && state != OperationState.UNKNOWN) {
            throw new OperationRefusedException(OperationRefusedException.NOT_UNKNOWN, operationId, state, "operation "
                    + operationId + " is already " + state + "; only an unknown operation (or an in_flight one, with --force)"
                    + " is reconciled");
        }
    }

    /** The store's update that records another attempt of a stored call. */
    interface Restart {
        void run() throws java.sql.SQLException;
    }

    /**
     * What a begin decides about a call stored in {@code state} (read under the transaction's lock): failed and
     * not_applied are tried again ({@code restart} records the attempt), done replays (null: the caller parses the
     * stored result outside its transaction) or is reconciled without a result, in_flight and unknown refuse.
     */
    static OperationStore.Begin decide(OperationState state, int attempts, boolean resultStored, Restart restart)
            throws java.sql.SQLException {
        return switch (state) {
            case FAILED, NOT_APPLIED -> {
                // another attempt: the row describes it now, and no longer carries an operator's earlier finding
                restart.run();
                yield new OperationStore.Begin.Started(attempts + 1);
            }
            case DONE -> resultStored ? null : new OperationStore.Begin.Reconciled(OperationState.DONE);
            case IN_FLIGHT -> new OperationStore.Begin.InFlight();
            case UNKNOWN -> new OperationStore.Begin.Unknown();
        };
    }

    static OperationRefusedException notFound(String operationId) {
        return new OperationRefusedException(OperationRefusedException.NOT_FOUND, operationId, null,
                "no operation " + operationId + " in this tenant's store; `operations list` shows the stored ones");
    }
}
