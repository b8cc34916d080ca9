package dev.cloakgate.policy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;

/**
 * The JSON-RPC error for a decision that is not let through: -32001 with {@code data.reason} (stable code),
 * {@code data.tool}, {@code data.controls}, and for a held call {@code data.fingerprint}. The message says why in
 * the findings' own words, which never quote the payload.
 */
public final class Refusals {
    private Refusals() {
    }

    public static RpcError of(Decision d, String tool) {
        String reason = d.reason();
        if (reason == null) {
            throw new IllegalArgumentException("not a refusal: " + d.action());
        }
        String why = d.findings().stream().filter(f -> f.action() == d.action()).map(Finding::detail).findFirst()
                .orElse(reason);
        String message = d instanceof Decision.RequireApproval
                ? "held for approval: " + why + "; the call's fingerprint is in data.fingerprint"
                : "refused by policy (" + reason + "): " + why;
        ArrayNode controls = JsonNodeFactory.instance.arrayNode();
        d.controls().forEach(controls::add);
        RpcError e = RpcError.of(ErrorCodes.REFUSED, reason, message).with("tool", tool == null ? "" : tool)
                .with("controls", controls);
        if (d instanceof Decision.RequireApproval r) {
            e = e.with("fingerprint", r.fingerprint());
        }
        return e;
    }
}
