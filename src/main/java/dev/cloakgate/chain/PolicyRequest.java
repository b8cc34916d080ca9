package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;

import dev.cloakgate.policy.Decision;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.Refusals;

/**
 * The policy's request stage for a tools/call: after the restore, so controls judge what the upstream will actually
 * receive. Redact replaces the arguments; block and require-approval end the call.
 */
public final class PolicyRequest implements CallStage {
    private final PolicySession policy;
    private final boolean gateApproves;

    public PolicyRequest(PolicySession policy) {
        this(policy, false);
    }

    /**
     * @param gateApproves the tenant has a gate: a call the policy holds for approval goes on to {@link ApprovalGate},
     *        where a signed receipt can release it (without a gate nothing could, and the hold is a refusal)
     */
    public PolicyRequest(PolicySession policy, boolean gateApproves) {
        this.policy = policy;
        this.gateApproves = gateApproves;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        Decision d = policy.request(call.declaredName(), call.upstream(), call.upstreamName(),
                call.params().get("arguments"));
        if (d instanceof Decision.Redact r) {
            call.params().set("arguments", r.payload());
        } else if (d instanceof Decision.RequireApproval && gateApproves) {
            call.set(GateFacts.POLICY_APPROVAL, d);
        } else if (!(d instanceof Decision.Allow)) {
            return CompletableFuture.completedFuture(call.refusal(Refusals.of(d, call.declaredName())));
        }
        return next.apply(call);
    }
}
