package dev.cloakgate.session;

import dev.cloakgate.chain.ApprovalGate;
import dev.cloakgate.chain.CallChain;
import dev.cloakgate.chain.GateCheck;
import dev.cloakgate.chain.OperationBegin;
import dev.cloakgate.chain.OperationRecord;
import dev.cloakgate.chain.CloakResult;
import dev.cloakgate.chain.PolicyRequest;
import dev.cloakgate.chain.PolicyResponse;
import dev.cloakgate.chain.RestoreTokens;
import dev.cloakgate.chain.WithheldPrompt;
import dev.cloakgate.cloak.Cloak;
import dev.cloakgate.gate.GateRecord;
import dev.cloakgate.gate.SessionTask;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.policy.PolicySession;

/**
 * The chains a session's calls pass, built once from what the tenant uses: a stage the tenant does not use is absent,
 * so the session forwards every call the same way. The order of the stages is written here and only here.
 */
final class CallChains {
    private final CallChain toolCall;
    private final CallChain resourceRead;
    private final CallChain promptGet;
    private final CallChain other;

    /**
     * @param cloak null when the tenant does not sanitize
     * @param policy null when the tenant has no policy block
     * @param calls told of each tools/call forwarded without a policy ({@link CallLog#NONE} to record nothing)
     */
    CallChains(String sessionId, Cloak cloak, PolicySession policy, CallLog calls) {
        this(sessionId, cloak, policy, calls, null);
    }

    /** The gate's parts of a session (issue 11): its tenant's gate, the session's task context and its evidence. */
    record Gate(TenantGate gate, SessionTask task, GateRecord record, String tenant, String sessionTag) {
    }

    /** @param gate null when the tenant has no gate block */
    CallChains(String sessionId, Cloak cloak, PolicySession policy, CallLog calls, Gate gate) {
        this.toolCall = chain("tools/call", sessionId, cloak, policy, calls, gate);
        this.resourceRead = chain("resources/read", sessionId, cloak, policy, calls, null);
        this.promptGet = chain("prompts/get", sessionId, cloak, policy, calls, null);
        // completion/complete, resources/subscribe and unsubscribe, tasks/get, tasks/result, tasks/cancel
        this.other = chain("", sessionId, cloak, policy, calls, null);
    }

    /** The chain for a forwarded request of {@code method}. */
    CallChain of(String method) {
        return switch (method) {
            case "tools/call" -> toolCall;
            case "resources/read" -> resourceRead;
            case "prompts/get" -> promptGet;
            default -> other;
        };
    }

    /**
     * A call passes: restore tokens → gate (release, contract) → policy request → approval → operation begin →
     * forward → operation (its outcome) → policy response → cloak → operation settle (with the answer the agent gets).
     */
    private static CallChain chain(String method, String sessionId, Cloak cloak, PolicySession policy, CallLog calls,
            Gate gate) {
        boolean toolCall = "tools/call".equals(method);
        // results that carry content into the model's context: the response stage judges them
        boolean inspected = toolCall || "resources/read".equals(method) || "prompts/get".equals(method);
        CallChain.Builder b = CallChain.builder();
        if (policy != null && "prompts/get".equals(method)) {
            // a prompt withheld from this session's listing is unknown to it, before anything is restored into it
            b.toUpstream(new WithheldPrompt(policy));
        }
        if (cloak != null) {
            b.toUpstream(new RestoreTokens(cloak));
        }
        if (gate != null) {
            // the release and the contract judge the arguments the upstream will receive, before the policy does
            b.toUpstream(new GateCheck(gate.gate(), gate.task(), gate.record()));
        }
        if (toolCall && policy != null) {
            b.toUpstream(new PolicyRequest(policy, gate != null));
        } else if (toolCall && calls != CallLog.NONE) {
            b.toUpstream(new UncheckedCallRecord(sessionId, calls));
        }
        if (gate != null) {
            // one approval concept: the contract's requiresApproval and the policy's hold, answered by one receipt
            b.toUpstream(new ApprovalGate(gate.gate(), gate.task(), gate.record()));
        }
        if (gate != null && gate.gate().operations() != null) {
            // directly around the forward: begun last going out (durable before the call is sent), its answer seen first
            b.aroundForward(new OperationBegin(gate.gate().operations(), gate.gate().worker(), gate.record(),
                    gate.tenant(), gate.sessionTag(), gate.task()));
        }
        if (policy != null && inspected) {
            b.toAgent(new PolicyResponse(policy));
        }
        if (cloak != null) {
            b.toAgent(new CloakResult(cloak));
        }
        if (gate != null && gate.gate().operations() != null) {
            // last coming back: the operation keeps the answer the agent gets, judged and cloaked, for replay
            b.toAgent(new OperationRecord(gate.gate().operations(), gate.gate().worker(), gate.record()));
        }
        return b.build();
    }
}
