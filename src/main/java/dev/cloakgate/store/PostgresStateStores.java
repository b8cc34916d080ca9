package dev.cloakgate.store;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

/**
 * Issue 17: every tenant's shared state in the database the replicas share, for the process of one replica. Beats for
 * it ({@link ReplicaHeartbeat}) once before any store is opened, so that a restarted replica is alive before it records
 * a call, then every {@code interval}; the other replicas take it for dead after {@code deadAfter} without a beat.
 */
public final class PostgresStateStores implements StateStores {
    private static final Logger LOG = Logger.getLogger(PostgresStateStores.class);
    private final DataSource db;
    private final String replica;
    private final Duration deadAfter;
    private final dev.cloakgate.policy.SharedTenantSecrets secrets;
    private final java.util.Map<String, dev.cloakgate.policy.TenantSecret> loaded = new java.util.concurrent.ConcurrentHashMap<>();
    private final ScheduledExecutorService beats;
    private volatile boolean beating = true;

    /**
     * @throws IllegalArgumentException when {@code deadAfter} is not at least three intervals (a replica must not be
     *                                  taken for dead because one beat was late)
     * @throws StoreException           when the first beat cannot be written (the database is unreachable)
     */
    public PostgresStateStores(DataSource db, String replica, Duration interval, Duration deadAfter,
            dev.cloakgate.policy.SharedTenantSecrets secrets) {
        if (interval.isNegative() || interval.isZero() || deadAfter.compareTo(interval.multipliedBy(3)) < 0) {
            throw new IllegalArgumentException("the heartbeat timeout must be at least three heartbeat intervals (interval "
                    + interval.toMillis() + " ms, timeout " + deadAfter.toMillis() + " ms)");
        }
        ReplicaHeartbeat heartbeat = new ReplicaHeartbeat(db, replica);
        heartbeat.beat();
        this.db = db;
        this.replica = replica;
        this.deadAfter = deadAfter;
        this.secrets = secrets;
        this.beats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloakgate-heartbeat");
            t.setDaemon(true);
            return t;
        });
        beats.scheduleWithFixedDelay(() -> {
            try {
                heartbeat.beat();
                if (!beating) {
                    LOG.infof("replica %s: heartbeat written again", replica);
                    beating = true;
                }
            } catch (RuntimeException e) {
                if (beating) {
                    // the others take this replica for dead after the timeout: its calls then become unknown
                    LOG.errorf("replica %s: the heartbeat could not be written (%s); trying again every %d ms", replica,
                            e.getClass().getSimpleName(), interval.toMillis());
                    beating = false;
                }
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public OperationStore operations(String tenant) {
        return PostgresOperationStore.openForGateway(db, tenant, replica, deadAfter, Clock.systemUTC());
    }

    @Override
    public ApprovalStore approvals(String tenant, Path dir) {
        return new PostgresApprovalStore(db, tenant);
    }

    @Override
    public dev.cloakgate.policy.PinStore pins(String tenant) {
        return new dev.cloakgate.policy.PostgresPinStore(db, tenant);
    }

    @Override
    public dev.cloakgate.policy.TenantSecret secret(String tenant) throws java.io.IOException {
        dev.cloakgate.policy.TenantSecret s = loaded.get(tenant);
        if (s == null) {
            s = secrets.load(tenant);
            dev.cloakgate.policy.TenantSecret raced = loaded.putIfAbsent(tenant, s);
            s = raced != null ? raced : s;
        }
        return s;
    }

    @Override
    public boolean shared() {
        return true;
    }

    public String replica() {
        return replica;
    }

    @Override
    public void close() {
        beats.shutdownNow();
    }
}
