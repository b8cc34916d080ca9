package dev.cloakgate.store;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tenant's durable record of side-effecting calls, so that a call which may already have taken effect is never
 * forwarded again blindly (seed "Operation identity and outcomes"). The gateway records a call before forwarding
 * it ({@link #begin}) and its outcome after ({@link #settle}, {@link #markUnknown}); an operator settles what the
 * gateway could not know ({@link #reconcile}). Every method is one transaction.
 *
 * <p>What is stored identifies the call (tool, upstream, session tag, receipt digest, task id), never an argument
 * value or a hash of one; a {@code done} call's cloaked result is kept so a retry gets it without a second call.
 *
 * <p>Methods block on the disk ({@link #begin} waits for an fsync): call them from a worker thread, never from an
 * event loop.
 *
 * <p>Implementations: {@link SqliteOperationStore} (one file per tenant, one gateway per file) and
 * {@link PostgresOperationStore} (issue 17: one database shared by the replicas, one transaction decides).
 */
public interface OperationStore extends AutoCloseable {

    /**
     * What is recorded when a call starts.
     *
     * @param tenant       the tenant (the store's own; a mismatch is refused)
     * @param tool         the tool's exposed name
     * @param upstream     the upstream it is forwarded to
     * @param session      the session's log tag, or null
     * @param approval     the digest of the approval receipt envelope, or null
     * @param taskId       the trusted task context's task id, or null
     */
    record Start(String tenant, String tool, String upstream, String session, String approval, String taskId) {
        public Start {
            if (tool == null || tool.isEmpty() || upstream == null || upstream.isEmpty()) {
                throw new IllegalArgumentException("an operation needs its tool and upstream");
            }
        }
    }

    /** What {@link #begin} decided. Only {@link Started} lets the call be forwarded. */
    sealed interface Begin {
        /** Recorded as {@code in_flight}: forward the call, then settle it. {@code attempt} counts from 1. */
        record Started(int attempt) implements Begin {
        }

        /** Already {@code done}: answer with this stored (cloaked) result instead of calling again. */
        record Replay(JsonNode result) implements Begin {
        }

        /** An operator settled it by hand (done, without a result to replay): {@code operation_reconciled}. */
        record Reconciled(OperationState state) implements Begin {
        }

        /** Another attempt is still running: {@code operation_in_flight}. */
        record InFlight() implements Begin {
        }

        /** It may or may not have taken effect: {@code reconcile_before_retry}. */
        record Unknown() implements Begin {
        }
    }

    /** What {@link #settle} did. */
    sealed interface Settled {
        /** The call moved from {@code in_flight} to {@code state}. */
        record Recorded(OperationState state) implements Settled {
        }

        /**
         * The call was no longer {@code in_flight}, so its state stays: an operator reconciled it meanwhile (then
         * {@code reconciledBy} names them) or the gateway marked it unknown.
         */
        record Kept(OperationState state, String reconciledBy) implements Settled {
        }
    }

    /** An operator's finding about a call whose effect was not known. */
    enum Outcome {
        DONE(OperationState.DONE), NOT_APPLIED(OperationState.NOT_APPLIED);

        private final OperationState state;

        Outcome(OperationState state) {
            this.state = state;
        }

        public OperationState state() {
            return state;
        }

        /** {@code done}, or {@code not-applied} as the command line writes it ({@code not_applied} too). */
        public static Outcome parse(String s) {
            return switch (s == null ? "" : s) {
                case "done" -> DONE;
                case "not-applied", "not_applied" -> NOT_APPLIED;
                default -> throw new IllegalArgumentException("'" + s + "' is not an outcome; done or not-applied");
            };
        }
    }

    /**
     * Checks and records the call in one transaction, before it is forwarded: absent, {@code failed} or
     * {@code not_applied} becomes {@code in_flight} ({@link Begin.Started}); {@code done} replays its result
     * ({@link Begin.Replay}) or, reconciled by hand without one, is {@link Begin.Reconciled}; {@code in_flight}
     * and {@code unknown} are {@link Begin.InFlight} and {@link Begin.Unknown}.
     *
     * @throws OperationRefusedException {@code operation_id_conflict} when the id is stored for another tool or
     *                                   upstream
     */
    Begin begin(String operationId, Start start);

    /**
     * Records the upstream's answer: {@code done} (with the cloaked result, which a retry replays) or
     * {@code failed} (no result is kept: the call may be tried again). Moves only an {@code in_flight} call;
     * any other state stays ({@link Settled.Kept}).
     */
    Settled settle(String operationId, OperationState outcome, JsonNode cloakedResult);

    /** The upstream died mid-call: {@code in_flight} becomes {@code unknown}. Returns the state the call now has. */
    OperationState markUnknown(String operationId);

    /**
     * At startup, before any call: every {@code in_flight} call left by a previous process becomes {@code unknown}.
     * Returns how many. Never on a store a running gateway uses.
     */
    int sweep();

    /**
     * The ids the gateway's open swept from {@code in_flight} to {@code unknown} ({@link #sweep}): calls a previous
     * process of this gateway (this replica) forwarded and never settled, for the gateway to record.
     */
    List<String> sweptAtOpen();

    /**
     * Issue 17: the {@code in_flight} calls of replicas that stopped beating (a process killed mid-call) become
     * {@code unknown}, so that any replica can reconcile them. Returns the ids this call moved, each returned to one
     * caller only, for it to record. A store only one process uses has no other replica: none.
     */
    default List<String> sweepDeadReplicas() {
        return List.of();
    }

    /** Stored operations, oldest first; only those in {@code state} unless it is null. */
    List<Operation> list(OperationState state);

    Optional<Operation> get(String operationId);

    /** How many operations are in each state (every state present, 0 when none): a tenant's status, not a listing. */
    java.util.Map<OperationState, Long> counts();

    /**
     * An operator's finding: an {@code unknown} call (or an {@code in_flight} one with {@code force}: it may still
     * be running, so check the real system first) becomes {@code done} (no result to replay: a retry is answered
     * {@code operation_reconciled}) or {@code not_applied} (a retry is forwarded).
     *
     * @throws OperationRefusedException {@code operation_not_found}; {@code operation_not_unknown} for any other
     *                                   state, and for {@code in_flight} without force
     */
    Operation reconcile(String operationId, Outcome outcome, boolean force, String byWhom);

    /** An operator's reconciliation, as the outbox keeps it until the gateway put it on the tenant's ledger. */
    record Reconciliation(long seq, String operationId, OperationState state, String byWhom, java.time.Instant at) {
    }

    /**
     * Reconciliations not yet on the ledger, oldest first (at most 1000 at a time). Where several gateways share the
     * store, each one is handed to one of them at a time (claimed for a while), so that it is recorded once.
     */
    List<Reconciliation> unrecorded();

    /** The reconciliation {@code seq} is on the ledger now. */
    void recorded(long seq);

    @Override
    void close();
}
