package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;

import dev.cloakgate.cloak.Cloak;
import dev.cloakgate.jsonrpc.RpcException;

/**
 * Puts the real values back in place of the tokens the agent wrote, so the upstream receives what the tool needs;
 * a token this upstream may not receive (token scope, a planted token) refuses the whole call. What the restore
 * carried is recorded only once the call was sent ({@link Call#markSent}).
 */
public final class RestoreTokens implements CallStage {
    private final Cloak cloak;

    public RestoreTokens(Cloak cloak) {
        this.cloak = cloak;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        try {
            call.restoration(cloak.toUpstream(call.upstream(), call.exposedName(), call.params()));
        } catch (RpcException refused) {
            return CompletableFuture.completedFuture(call.refusal(refused.error()));
        }
        return next.apply(call);
    }
}
