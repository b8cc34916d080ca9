package dev.cloakgate.gate;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.store.ApprovalStore;
import dev.cloakgate.store.DirectoryApprovalStore;
import dev.cloakgate.store.OperationStore;
import dev.cloakgate.store.StateStores;
import dev.cloakgate.store.StoreException;
import dev.cloakgate.tenant.GateSettings;
import dev.cloakgate.tenant.TenantConfigException;

/**
 * What a tenant's gate holds for the life of the gateway, whatever later versions of its file say: the operations
 * store (one gateway per file: its lock is held until shutdown), the approval stores of the directories its versions
 * named, and one worker thread where their blocking work runs (the store serialises a tenant's writes anyway). At open,
 * operations a previous process left {@code in_flight} are {@code unknown} (on the ledger too, once the tenant's entries
 * name its release: {@link #recordSwept}); every few seconds, reconciliations an operator made with the command beside
 * the running gateway (or through another replica) are put on the ledger, and (issue 17) the calls of replicas that
 * stopped beating become unknown, on the ledger too.
 */
public final class GateStores implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GateStores.class);
    private final String tenant;
    private final Path data;
    private final StateStores stores;
    private final OperationStore operations;
    private final Map<Path, ApprovalStore> approvals = new ConcurrentHashMap<>();
    private final ScheduledExecutorService worker;
    private final Evidence evidence;
    /** Operations the open swept to unknown, not yet on the ledger. */
    private List<String> swept = List.of();
    /** Whether the tenant's entries name a release yet ({@link #recordSwept} ran): what is recorded waits for it. */
    private volatile boolean bound;

    private GateStores(String tenant, Path data, StateStores stores, OperationStore operations, ScheduledExecutorService worker,
            Evidence evidence) {
        this.tenant = tenant;
        this.data = data;
        this.stores = stores;
        this.operations = operations;
        this.worker = worker;
        this.evidence = evidence;
    }

    /** @throws TenantConfigException when the store cannot be opened (another gateway holds it, a damaged file) */
    public static GateStores open(StateStores stores, Path data, String tenant, GateSettings settings, String file,
            Evidence evidence) throws TenantConfigException {
        OperationStore ops;
        try {
            ops = stores.operations(tenant);
        } catch (StoreException e) {
            throw new TenantConfigException(file, "$.gate", "cannot open the tenant's operations store: " + e.getMessage());
        }
        if (!ops.sweptAtOpen().isEmpty()) {
            LOG.warnf("tenant %s: %d operation(s) left in flight by a previous process are unknown now; reconcile them"
                    + " (`operations list --tenant %s --state unknown`)", tenant, ops.sweptAtOpen().size(), tenant);
        }
        ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloakgate-gate-" + tenant);
            t.setDaemon(true);
            return t;
        });
        GateStores gate = new GateStores(tenant, data, stores, ops, worker, evidence);
        gate.swept = ops.sweptAtOpen();
        worker.scheduleWithFixedDelay(() -> {
            gate.recordDeadReplicasCalls();
            gate.recordReconciliations();
        }, 0, 2, TimeUnit.SECONDS);
        return gate;
    }

    /**
     * Puts the operations the open swept to {@code unknown} on the ledger, once: called when the tenant's entries are
     * bound to the release its file enforces, so these entries name it like every other.
     */
    public synchronized void recordSwept() {
        for (String id : swept) {
            // the previous process died with this call unanswered: whether it took effect is unknown
            evidence.record(new Event.OperationSettled(tenant, null, null, null, id, "unknown"));
        }
        swept = List.of();
        bound = true;
    }

    /**
     * Issue 17: the calls of replicas that stopped beating become unknown, each recorded by the one replica whose
     * sweep moved it. None in the SQLite mode (one process per store).
     */
    void recordDeadReplicasCalls() {
        if (!bound) {
            return;
        }
        try {
            List<String> ids = operations.sweepDeadReplicas();
            if (!ids.isEmpty()) {
                LOG.warnf("tenant %s: %d operation(s) in flight on a replica that stopped beating are unknown now; reconcile"
                        + " them (admin API: operations of state unknown)", tenant, ids.size());
            }
            for (String id : ids) {
                evidence.record(new Event.OperationSettled(tenant, null, null, null, id, "unknown"));
            }
        } catch (RuntimeException e) {
            LOG.errorf("tenant %s: the calls of dead replicas could not be swept now (%s); trying again",
                    tenant, e.getClass().getSimpleName());
        }
    }

    /** Puts reconciliations made beside the gateway on the ledger, each once. */
    void recordReconciliations() {
        try {
            for (OperationStore.Reconciliation r : operations.unrecorded()) {
                evidence.record(new Event.OperationReconciled(tenant, r.byWhom(), r.operationId(), r.state().wire()));
                operations.recorded(r.seq());
            }
        } catch (RuntimeException e) {
            LOG.errorf("tenant %s: reconciliations could not be put on the ledger now (%s); trying again",
                    tenant, e.getClass().getSimpleName());
        }
    }

    /** Runs {@link #recordReconciliations} now, on the worker (after an operator reconciled through the admin API). */
    public void recordReconciliationsSoon() {
        worker.execute(this::recordReconciliations);
    }

    public OperationStore operations() {
        return operations;
    }

    /** The approval store of the directory {@code settings} names (default {@code {data}/approvals/{tenant}}). */
    public ApprovalStore approvals(GateSettings settings) {
        return approvals.computeIfAbsent(approvalsDir(settings), dir -> stores.approvals(tenant, dir));
    }

    /** The directory of approval receipts {@code settings} names, absolute (default {@code {data}/approvals/{tenant}}). */
    public Path approvalsDir(GateSettings settings) {
        Path dir = settings.approvalsDir() != null ? settings.approvalsDir()
                : DirectoryApprovalStore.defaultDir(data, tenant);
        return dir.toAbsolutePath().normalize();
    }

    public ExecutorService worker() {
        return worker;
    }

    @Override
    public void close() {
        worker.shutdown();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        approvals.values().forEach(a -> {
            try {
                a.close();
            } catch (Exception e) {
                LOG.debugf("approval store did not close cleanly (%s)", e.getClass().getSimpleName());
            }
        });
        try {
            operations.close();
        } catch (Exception e) {
            LOG.errorf("tenant %s: operations store did not close cleanly (%s)", tenant, e.getClass().getSimpleName());
        }
    }
}
