package dev.cloakgate.session;

import java.util.concurrent.CompletableFuture;

import dev.cloakgate.chain.Call;
import dev.cloakgate.chain.CallStage;
import dev.cloakgate.chain.Reply;

/**
 * Records a tools/call forwarded to its upstream when the tenant has no policy (a policy records its own decisions),
 * so the evidence shows every call either way; only once it was sent, as a refusal or a link that never took it
 * disclosed nothing.
 */
final class UncheckedCallRecord implements CallStage {
    private final String sessionId;
    private final CallLog calls;

    UncheckedCallRecord(String sessionId, CallLog calls) {
        this.sessionId = sessionId;
        this.calls = calls;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        call.whenSent(() -> calls.forwarded(sessionId, call.upstream(), call.declaredName(),
                call.params().get("arguments")));
        return next.apply(call);
    }
}
