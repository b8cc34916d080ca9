package dev.cloakgate.gate;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;

/**
 * The gate's JSON-RPC errors: -32001 with {@code data: {reason, tool, release}} (and {@code gate_path} where a contract
 * rule refused, {@code fingerprint} where an approval is missing); -32002 with {@code data.operationId} for the
 * operation family, where the agent must not simply retry. Messages say what to do, never quote an argument.
 */
public final class GateRefusals {
    private GateRefusals() {
    }

    public static RpcError denied(String reason, String detail, String tool, String release, String gatePath) {
        RpcError e = RpcError.of(ErrorCodes.REFUSED, reason, "refused by the gate (" + reason + ")"
                + (detail == null || detail.isEmpty() ? "" : ": " + detail) + (gatePath == null ? "" : " [" + gatePath + "]"))
                .with("tool", tool == null ? "" : tool).with("release", release == null ? "" : release);
        return gatePath == null ? e : e.with("gate_path", gatePath);
    }

    /** {@code approval_required}: no receipt for this call yet; {@code fingerprint} is what an approver signs. */
    public static RpcError approvalRequired(String tool, String release, String fingerprint, String why) {
        return RpcError.of(ErrorCodes.REFUSED, "approval_required", "held for approval" + (why == null ? "" : ": " + why)
                + "; an approver signs a receipt for the fingerprint in data.fingerprint (`approve`, or the admin API)")
                .with("tool", tool == null ? "" : tool).with("release", release == null ? "" : release)
                .with("fingerprint", fingerprint);
    }

    /** -32002: the operation's state must be settled before this call may run again. */
    public static RpcError operation(String reason, String message, String operationId, String tool, String release) {
        return RpcError.of(ErrorCodes.RECONCILE, reason, message).with("operationId", operationId)
                .with("tool", tool == null ? "" : tool).with("release", release == null ? "" : release);
    }
}
