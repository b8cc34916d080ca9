package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;

import dev.cloakgate.gate.ActionBoundary;
import dev.cloakgate.gate.GateRecord;
import dev.cloakgate.gate.GateRefusals;
import dev.cloakgate.gate.ReleaseGate;
import dev.cloakgate.gate.SessionTask;
import dev.cloakgate.gate.TenantGate;

/**
 * The gate's first stage for a tools/call (issue 11), after the restore (it judges the arguments the upstream will
 * receive) and before the policy: may this release call this tool now (the certification is verified at every
 * call), and may this exact call run under its contract and the session's task context. An approval the contract
 * asks for is left to {@link ApprovalGate}, after the policy, so that one receipt answers both demands. In warn mode
 * a refusal is recorded and the call goes on.
 */
public final class GateCheck implements CallStage {
    private final TenantGate gate;
    private final SessionTask task;
    private final GateRecord record;

    public GateCheck(TenantGate gate, SessionTask task, GateRecord record) {
        this.gate = gate;
        this.task = task;
        this.record = record;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        String tool = call.declaredName();
        String release = gate.releaseHash();
        call.set(GateFacts.RELEASE, release);
        if (gate.release(tool) instanceof ReleaseGate.Deny d) {
            record.denied(call.upstream(), tool, release, d.reason(), null, gate.warnOnly());
            if (!gate.warnOnly()) {
                return refuse(call, GateRefusals.denied(d.reason(), d.detail(), tool, release, null));
            }
        }
        ActionBoundary.Outcome o = gate.boundary().check(release, tool, call.params().get("arguments"), task.get(), false);
        if (o instanceof ActionBoundary.Deny d) {
            record.denied(call.upstream(), tool, release, d.reason(), d.gatePath(), gate.warnOnly());
            if (!gate.warnOnly()) {
                return refuse(call, GateRefusals.denied(d.reason(), null, tool, release, d.gatePath()));
            }
        } else if (o instanceof ActionBoundary.Held h) {
            call.set(GateFacts.NEEDS_APPROVAL, h.fingerprint());
        } else if (o instanceof ActionBoundary.Pass p) {
            call.set(GateFacts.PASSED, p);
            record.allowed(call.upstream(), tool, release, p);
        }
        return next.apply(call);
    }

    static CompletableFuture<Reply> refuse(Call call, dev.cloakgate.jsonrpc.RpcError error) {
        return CompletableFuture.completedFuture(call.refusal(error));
    }
}
