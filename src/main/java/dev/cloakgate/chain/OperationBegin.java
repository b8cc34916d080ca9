package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.gate.ActionBoundary;
import dev.cloakgate.gate.GateRecord;
import dev.cloakgate.gate.GateRefusals;
import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.store.OperationRefusedException;
import dev.cloakgate.store.OperationState;
import dev.cloakgate.store.OperationStore;
import dev.cloakgate.store.StoreException;

/**
 * The operations store around the forward of a side-effecting or approved call (issue 11; seed "Operation identity
 * and outcomes"). Before the call goes out, one durable transaction decides: a new operation is {@code in_flight} and
 * goes on; a {@code done} one answers with its stored result and never reaches the upstream again; one in flight
 * elsewhere, of unknown outcome or settled by an operator is refused -32002 so the agent does not retry blindly.
 * Coming back, the upstream's answer says how to settle it ({@link OperationRecord} settles with the final answer);
 * a link that died after the call was written leaves its outcome {@code unknown}. Store work runs on the tenant's
 * worker, never an event loop.
 */
public final class OperationBegin implements CallStage {
    private static final Logger LOG = Logger.getLogger(OperationBegin.class);
    private final OperationStore store;
    private final java.util.concurrent.Executor worker;
    private final GateRecord record;
    private final String tenant;
    private final String sessionTag;
    private final dev.cloakgate.gate.SessionTask task;

    /** @param sessionTag how the operation names its session (the log tag, never the id: a bearer handle) */
    public OperationBegin(OperationStore store, java.util.concurrent.Executor worker, GateRecord record, String tenant,
            String sessionTag, dev.cloakgate.gate.SessionTask task) {
        this.task = task;
        this.store = store;
        this.worker = worker;
        this.record = record;
        this.tenant = tenant;
        this.sessionTag = sessionTag;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        ActionBoundary.Pass pass = call.get(GateFacts.PASSED);
        String op = pass == null ? null : pass.operationId();
        if (op == null) {
            return next.apply(call);
        }
        String tool = call.declaredName();
        String release = call.get(GateFacts.RELEASE);
        OperationStore.Start start = new OperationStore.Start(tenant, tool, call.upstream(), sessionTag,
                pass.approval() == null ? null : pass.approval().envelopeDigest(),
                task.get() == null ? null : task.get().taskId());
        return CompletableFuture.supplyAsync(() -> store.begin(op, start), worker).handle((begin, err) -> {
            if (err != null) {
                return CompletableFuture.completedFuture(unavailable(call, op, tool, release, err));
            }
            if (begin instanceof OperationStore.Begin.Started) {
                return next.apply(call).handle((reply, failed) -> settle(call, op, tool, release, reply, failed))
                        .thenCompose(f -> f);
            }
            if (begin instanceof OperationStore.Begin.Replay r) {
                record.settled(tool, release, op, "replayed");
                return CompletableFuture.completedFuture(Reply.replay((ObjectNode) r.result()));
            }
            if (begin instanceof OperationStore.Begin.InFlight) {
                return refuse(call, GateRefusals.operation("operation_in_flight", "this operation is running now (another"
                        + " call of it has not been answered); wait for it, do not send it again", op, tool, release));
            }
            if (begin instanceof OperationStore.Begin.Reconciled rec) {
                return refuse(call, reconciled(op, tool, release, rec.state()));
            }
            return refuse(call, GateRefusals.operation("reconcile_before_retry", "an earlier attempt of this operation"
                    + " ended without an answer, so whether it took effect is unknown; an operator must reconcile it"
                    + " (`operations reconcile`) before it may run again", op, tool, release));
        }).thenCompose(f -> f);
    }

    /** The upstream answered (settled later, with the final answer) or the call failed on the way. */
    private CompletableFuture<Reply> settle(Call call, String op, String tool, String release, Reply reply, Throwable failed) {
        if (failed == null) {
            boolean error = reply.isError() || reply.response().path("result").path("isError").asBoolean(false);
            call.set(GateFacts.SETTLE_AS, error ? OperationState.FAILED : OperationState.DONE);
            return CompletableFuture.completedFuture(reply);
        }
        if (!call.sent()) {
            // it never reached the upstream: nothing took effect, and a retry may run it
            return CompletableFuture.supplyAsync(() -> {
                store.settle(op, OperationState.FAILED, null);
                record.settled(tool, release, op, OperationState.FAILED.wire());
                return null;
            }, worker).handle((v, e) -> {
                throw failed instanceof CompletionException c ? c : new CompletionException(failed);
            });
        }
        // written, then the link died, timed out or was cancelled: it may have taken effect
        return CompletableFuture.supplyAsync(() -> store.markUnknown(op), worker).handle((state, e) -> {
            if (e != null) {
                LOG.errorf("tenant %s: operation %s could not be marked unknown (%s)", tenant, op,
                        e.getClass().getSimpleName());
            }
            if (state != null && state != OperationState.UNKNOWN && state != OperationState.IN_FLIGHT) {
                return call.refusal(reconciled(op, tool, release, state));
            }
            record.settled(tool, release, op, OperationState.UNKNOWN.wire());
            return call.refusal(GateRefusals.operation("operation_unknown", "the upstream did not answer this operation"
                    + " (its link failed after the call was sent), so whether it took effect is unknown; do not retry: an"
                    + " operator reconciles it (`operations reconcile`)", op, tool, release));
        });
    }

    private static RpcError reconciled(String op, String tool, String release, OperationState state) {
        return GateRefusals.operation("operation_reconciled", "an operator settled this operation as " + state.wire()
                + "; it is not run again", op, tool, release).with("state", state.wire());
    }

    private Reply unavailable(Call call, String op, String tool, String release, Throwable err) {
        Throwable t = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
        if (t instanceof OperationRefusedException r) {
            return call.refusal(GateRefusals.denied(r.code(), r.getMessage(), tool, release, null));
        }
        LOG.errorf("tenant %s: the operations store could not begin an operation (%s)", tenant,
                t instanceof StoreException ? t.getMessage() : t.getClass().getSimpleName());
        // fail closed: a side effect whose begin is not durable is not sent
        return call.refusal(RpcError.of(ErrorCodes.REFUSED, "operations_unavailable", "the gateway cannot record this"
                + " operation durably now, so it is not sent; retry later").with("tool", tool).with("operationId", op));
    }

    private static CompletableFuture<Reply> refuse(Call call, RpcError e) {
        return CompletableFuture.completedFuture(call.refusal(e));
    }
}
