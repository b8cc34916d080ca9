package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.jboss.logging.Logger;

import dev.cloakgate.gate.ActionBoundary;
import dev.cloakgate.gate.GateRecord;
import dev.cloakgate.store.OperationState;
import dev.cloakgate.store.OperationStore;

/**
 * Settles an operation with the answer the agent gets (issue 11): the last stage coming back, so what is stored for
 * replay is judged and cloaked already (the store keeps no value the agent did not see). A crash before this leaves
 * the operation {@code in_flight}, which the next start sweeps to {@code unknown}: never run twice.
 */
public final class OperationRecord implements CallStage {
    private static final Logger LOG = Logger.getLogger(OperationRecord.class);
    private final OperationStore store;
    private final Executor worker;
    private final GateRecord record;

    public OperationRecord(OperationStore store, Executor worker, GateRecord record) {
        this.store = store;
        this.worker = worker;
        this.record = record;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        return next.apply(call).thenCompose(reply -> {
            OperationState state = call.get(GateFacts.SETTLE_AS);
            ActionBoundary.Pass pass = call.get(GateFacts.PASSED);
            if (state == null || pass == null || pass.operationId() == null) {
                return CompletableFuture.completedFuture(reply);
            }
            String op = pass.operationId();
            return CompletableFuture.supplyAsync(() -> {
                try {
                    OperationStore.Settled s = store.settle(op, state, state == OperationState.DONE ? reply.response() : null);
                    OperationState kept = s instanceof OperationStore.Settled.Kept k ? k.state() : state;
                    record.settled(call.declaredName(), call.get(GateFacts.RELEASE), op, kept.wire());
                } catch (RuntimeException e) {
                    // the answer stands; the row stays in_flight and the next start makes it unknown
                    LOG.errorf("operation %s could not be settled (%s)", op, e.getClass().getSimpleName());
                }
                return reply;
            }, worker);
        });
    }
}
