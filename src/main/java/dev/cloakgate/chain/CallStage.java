package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;

/**
 * One step on the path of a call, with one job (as an Armeria decorator). Going out it may change the call
 * ({@link Call#params()}) and pass it on with {@code next.apply(call)}, or end it with a refusal
 * ({@link Call#refusal}) without calling {@code next}; coming back it may change what {@code next} answered. A stage
 * that judges or rewrites an answer touches only {@link Reply.Kind#UPSTREAM} replies: a refusal or a replayed answer
 * passes back untouched. A transport failure (the link died, the call timed out, the client cancelled) travels as the
 * future's failure; a stage that does not handle it passes it on unchanged.
 */
@FunctionalInterface
public interface CallStage {
    CompletableFuture<Reply> apply(Call call, Next next);

    /** The rest of the chain after a stage, ending at the forward to the upstream. */
    @FunctionalInterface
    interface Next {
        CompletableFuture<Reply> apply(Call call);
    }
}
