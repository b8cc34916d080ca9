package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.cloak.Cloak;

/**
 * Cloaks, in place, the upstream's answer on its way to the agent (typed walk, tripwire, escaping of the shapes the
 * upstream wrote). A refusal or a replayed answer is not the upstream's text of this call: it passes untouched.
 */
public final class CloakResult implements CallStage {
    private final Cloak cloak;

    public CloakResult(Cloak cloak) {
        this.cloak = cloak;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        return next.apply(call).thenApply(reply -> {
            if (reply.fromUpstream()) {
                JsonNode payload = reply.payload();
                JsonNode cloaked = cloak.cloaked(call.upstream(), call.method(), payload);
                if (cloaked != payload) {
                    // a bare string or number (issue 14): cloaked as a new node, put where it was
                    reply.response().set(reply.isError() ? "error" : "result", cloaked);
                }
            }
            return reply;
        });
    }
}
