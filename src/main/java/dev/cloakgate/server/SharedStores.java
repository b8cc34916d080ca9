package dev.cloakgate.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import org.jboss.logging.Logger;

import dev.cloakgate.policy.SharedTenantSecrets;
import dev.cloakgate.store.FileStateStores;
import dev.cloakgate.store.PostgresStateStores;
import dev.cloakgate.store.ReplicaHeartbeat;
import dev.cloakgate.store.StateStores;
import dev.cloakgate.store.StoreException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Issue 17: the edge of the shared stores. With {@code cloakgate.store=sqlite} every tenant's state is in files under
 * the data dir, as before; with {@code postgresql} it is in the shared database, recorded for this replica
 * ({@code cloakgate.cluster.replica-id}, {@code single} without one), which beats every
 * {@code cloakgate.cluster.heartbeat-interval} and is taken for dead by the others after
 * {@code cloakgate.cluster.heartbeat-timeout} without a beat.
 */
@ApplicationScoped
public class SharedStores {
    private static final Logger LOG = Logger.getLogger(SharedStores.class);
    private final SharedDatabase database;
    private final Optional<String> replicaId;
    private final Duration interval;
    private final Duration timeout;
    private final Optional<String> keyFile;
    private final int replicas;

    @Inject
    SharedStores(SharedDatabase database, GatewayConfig config) {
        GatewayConfig.Cluster c = config.cluster();
        this.database = database;
        this.replicaId = c.replicaId().map(String::strip).filter(s -> !s.isEmpty());
        this.interval = c.heartbeatInterval();
        this.timeout = c.heartbeatTimeout();
        this.keyFile = c.keyFile().map(String::strip).filter(s -> !s.isEmpty());
        this.replicas = c.replicas();
    }

    /**
     * This replica's share of the limits over many sessions: {@code cloakgate.cluster.replicas} (default 1; Helm sets
     * it) divides them, rounded up; {@code cluster_replicas_invalid} below 1.
     */
    public dev.cloakgate.tenant.ReplicaShare share() {
        if (replicas < 1) {
            throw new IllegalStateException("cluster_replicas_invalid: cloakgate.cluster.replicas is the number of replicas"
                    + " serving the tenants (at least 1; Helm sets it), which divides the tenant-wide limits");
        }
        return new dev.cloakgate.tenant.ReplicaShare(replicas);
    }

    /** The replica id the shared stores record: {@code cloakgate.cluster.replica-id}, or {@code single}. */
    public String replica() {
        return replicaId.orElse(ReplicaHeartbeat.SINGLE);
    }

    /** Opens this process's stores (the first heartbeat written) or stops the start with a stable code. */
    StateStores open(Path data) {
        return database.dataSource().<StateStores>map(db -> {
            try {
                byte[] sealing = tenantSecretsKey();
                PostgresStateStores stores = new PostgresStateStores(db, replica(), interval, timeout,
                        new SharedTenantSecrets(db, sealing));
                java.util.Arrays.fill(sealing, (byte) 0);
                LOG.infof("shared stores in PostgreSQL for replica %s (heartbeat every %d s, dead after %d s)", replica(),
                        interval.toSeconds(), timeout.toSeconds());
                return stores;
            } catch (IllegalArgumentException e) {
                if (e.getMessage() != null && e.getMessage().startsWith("a replica id")) {
                    throw new IllegalStateException("cluster_replica_id_invalid: cloakgate.cluster.replica-id must be a DNS"
                            + " label (1-63 of a-z, 0-9 and -, starting and ending with a letter or digit)");
                }
                throw new IllegalStateException("cluster_heartbeat_invalid: " + e.getMessage()
                        + "; set cloakgate.cluster.heartbeat-timeout to at least three cloakgate.cluster.heartbeat-interval");
            } catch (StoreException e) {
                throw new IllegalStateException("store_unavailable: the shared database did not take this replica's"
                        + " heartbeat; check quarkus.datasource.jdbc.url and its credentials (" + e.getMessage() + ")", e);
            }
        }).orElseGet(() -> new FileStateStores(data));
    }

    /**
     * The {@code tenant-secrets} subkey of the cluster key ({@code cloakgate.cluster.key-file}: the standard base64 of 32
     * bytes; HKDF-SHA256, no salt, info {@code cloakgate/tenant-secrets}), which seals the tenants' shared secrets.
     */
    private byte[] tenantSecretsKey() {
        if (keyFile.isEmpty()) {
            throw new IllegalStateException("cluster_key_missing: cloakgate.store=postgresql keeps each tenant's secret in the"
                    + " shared database sealed under the replicas' cluster key: set cloakgate.cluster.key-file to a file holding"
                    + " the standard base64 of 32 random bytes (`head -c 32 /dev/urandom | base64`, mounted from a Secret)");
        }
        return dev.cloakgate.cluster.ClusterKey.read(keyFile).subkey(dev.cloakgate.cluster.ClusterKey.TENANT_SECRETS);
    }
}
