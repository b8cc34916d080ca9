package dev.cloakgate.gate;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one contract says about one exposed tool: whether a call has side effects (its outcome is tracked as an
 * operation), whether it needs a signed approval receipt, and the schema its arguments must keep.
 *
 * @param contract the reference of the contract that declares it ({@code policy:<name>@sha256:<hex>})
 */
public record ToolRule(String contract, String tool, boolean sideEffect, boolean requiresApproval, ArgumentRule arguments) {

    /**
     * The first rule the call breaks, or null. Absent {@code arguments} (MCP allows it) are checked as an empty
     * object; anything but an object is {@code argument_type} at {@code spec.tools.<tool>.arguments}.
     */
    public Violation check(JsonNode callArguments, TaskContext context) {
        JsonNode args = callArguments == null || callArguments.isMissingNode() ? CallFingerprint.NO_ARGUMENTS : callArguments;
        return arguments.check(args, context);
    }
}
