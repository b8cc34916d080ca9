package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;

import dev.cloakgate.policy.Decision;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.Refusals;

/** A prompts/get of a prompt discovery withheld from this session's listing: refused before anything else runs. */
public final class WithheldPrompt implements CallStage {
    private final PolicySession policy;

    public WithheldPrompt(PolicySession policy) {
        this.policy = policy;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        Decision hidden = policy.promptWithheld(call.declaredName());
        if (hidden != null) {
            return CompletableFuture.completedFuture(call.refusal(Refusals.of(hidden, call.exposedName())));
        }
        return next.apply(call);
    }
}
