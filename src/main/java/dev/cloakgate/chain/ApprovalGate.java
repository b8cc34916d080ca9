package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;

import dev.cloakgate.gate.ActionBoundary;
import dev.cloakgate.gate.GateRecord;
import dev.cloakgate.gate.GateRefusals;
import dev.cloakgate.gate.SessionTask;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.policy.Decision;
import dev.cloakgate.policy.Finding;

/**
 * The approval a call needs, after the policy's request stage: a contract's {@code requiresApproval} and the policy's
 * {@code destructive_action} are one concept, satisfied by the same signed receipt for this call's fingerprint. Without
 * one the call is refused {@code approval_required} with the fingerprint; with {@code approval_wait} it is held on its
 * stream (keep-alives flowing) and goes on the moment a valid receipt arrives, or is refused when the wait ends.
 */
public final class ApprovalGate implements CallStage {
    private final TenantGate gate;
    private final SessionTask task;
    private final GateRecord record;

    public ApprovalGate(TenantGate gate, SessionTask task, GateRecord record) {
        this.gate = gate;
        this.task = task;
        this.record = record;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        Decision policyDemand = call.get(GateFacts.POLICY_APPROVAL);
        if (call.get(GateFacts.NEEDS_APPROVAL) == null && policyDemand == null) {
            return next.apply(call);
        }
        ActionBoundary.Outcome o = check(call, policyDemand != null);
        if (o instanceof ActionBoundary.Held h && !gate.approvalWait().isZero() && gate.approvals() != null) {
            call.held();
            return gate.approvals().await(h.fingerprint(), gate.approvalWait())
                    .thenApplyAsync(receipt -> check(call, policyDemand != null), gate.worker())
                    .thenCompose(after -> call.wanted() ? decided(call, after, policyDemand, next)
                            // cancelled or its session ended while it waited: never sent, and nobody reads this
                            : GateCheck.refuse(call, GateRefusals.denied("cancelled", "the call was cancelled while held",
                                    call.declaredName(), call.get(GateFacts.RELEASE), null)));
        }
        return decided(call, o, policyDemand, next);
    }

    private ActionBoundary.Outcome check(Call call, boolean policyDemands) {
        return gate.boundary().check(call.get(GateFacts.RELEASE), call.declaredName(), call.params().get("arguments"),
                task.get(), policyDemands);
    }

    private CompletableFuture<Reply> decided(Call call, ActionBoundary.Outcome o, Decision policyDemand, Next next) {
        String tool = call.declaredName();
        String release = call.get(GateFacts.RELEASE);
        if (o instanceof ActionBoundary.Pass p) {
            call.set(GateFacts.PASSED, p);
            record.allowed(call.upstream(), tool, release, p);
            return next.apply(call);
        }
        String reason = o instanceof ActionBoundary.Deny d ? d.reason() : "approval_required";
        String path = o instanceof ActionBoundary.Deny d ? d.gatePath() : null;
        record.denied(call.upstream(), tool, release, reason, path, gate.warnOnly());
        if (gate.warnOnly()) {
            return next.apply(call);
        }
        if (o instanceof ActionBoundary.Held h) {
            String why = policyDemand == null ? "the tool's contract requires an approval"
                    : policyDemand.findings().stream().filter(f -> f.action() == dev.cloakgate.policy.Action.REQUIRE_APPROVAL)
                            .map(Finding::detail).findFirst().orElse("the policy requires an approval");
            return GateCheck.refuse(call, GateRefusals.approvalRequired(tool, release, h.fingerprint(), why));
        }
        return GateCheck.refuse(call, GateRefusals.denied(reason, null, tool, release, path));
    }
}
