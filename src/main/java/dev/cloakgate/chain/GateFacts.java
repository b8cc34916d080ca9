package dev.cloakgate.chain;

import dev.cloakgate.gate.ActionBoundary;
import dev.cloakgate.policy.Decision;
import dev.cloakgate.store.OperationState;

/** What the gate's stages learn about a call and hand to the later ones (issue 11). */
final class GateFacts {
    /** The release the gate enforced for this call ({@code sha256:<hex>}). */
    static final Call.Attribute<String> RELEASE = Call.Attribute.of("release", String.class);
    /** The boundary let the call run: its rule, fingerprint, approval and operation id. */
    static final Call.Attribute<ActionBoundary.Pass> PASSED = Call.Attribute.of("gate_pass", ActionBoundary.Pass.class);
    /** The contract asks for an approval the boundary did not find yet: the fingerprint to find one for. */
    static final Call.Attribute<String> NEEDS_APPROVAL = Call.Attribute.of("needs_approval", String.class);
    /** The policy's request stage asked for an approval ({@code destructive_action}): the same receipt satisfies it. */
    static final Call.Attribute<Decision> POLICY_APPROVAL = Call.Attribute.of("policy_approval", Decision.class);
    /** The operation began for this call and the upstream answered: the state to settle with the final answer. */
    static final Call.Attribute<OperationState> SETTLE_AS = Call.Attribute.of("settle_as", OperationState.class);

    private GateFacts() {
    }
}
