package dev.cloakgate.session;

import dev.cloakgate.chain.CallChain;
import dev.cloakgate.chain.CloakResult;
import dev.cloakgate.chain.PolicyRequest;
import dev.cloakgate.chain.PolicyResponse;
import dev.cloakgate.chain.RestoreTokens;
import dev.cloakgate.chain.WithheldPrompt;
import dev.cloakgate.cloak.Cloak;
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
        this.toolCall = chain("tools/call", sessionId, cloak, policy, calls);
        this.resourceRead = chain("resources/read", sessionId, cloak, policy, calls);
        this.promptGet = chain("prompts/get", sessionId, cloak, policy, calls);
        // completion/complete, resources/subscribe and unsubscribe, tasks/get, tasks/result, tasks/cancel
        this.other = chain("", sessionId, cloak, policy, calls);
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
     * A call passes: restore tokens → [gate] → policy request → [operation begin] → forward → [operation settle] →
     * policy response → cloak.
     */
    private static CallChain chain(String method, String sessionId, Cloak cloak, PolicySession policy, CallLog calls) {
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
        // [gate] issue 11: the release/contract/approval check of a tools/call goes here, after the restore (it judges
        // the arguments the upstream will receive) and before the policy's request stage:
        //   if (toolCall && gate != null) b.toUpstream(new GateCheck(...));
        if (toolCall && policy != null) {
            b.toUpstream(new PolicyRequest(policy));
        } else if (toolCall && calls != CallLog.NONE) {
            b.toUpstream(new UncheckedCallRecord(sessionId, calls));
        }
        // [operation] issue 11: the operations store of a tools/call goes here, directly around the forward: it begins
        // the operation last going out (or answers a done one with Reply.replay) and settles it first coming back,
        // from the upstream's answer or the forward's failure (a dead link, a timeout, a cancelled call; Call.sent()
        // says whether the message was written). The forward answers Reply.refusal when it never sent the call
        // (duplicate_id).
        //   if (toolCall && operations != null) b.aroundForward(new OperationStage(...));
        if (policy != null && inspected) {
            b.toAgent(new PolicyResponse(policy));
        }
        if (cloak != null) {
            b.toAgent(new CloakResult(cloak));
        }
        return b.build();
    }
}
