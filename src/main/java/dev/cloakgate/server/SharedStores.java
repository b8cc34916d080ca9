package dev.cloakgate.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

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

    @Inject
    SharedStores(SharedDatabase database, @ConfigProperty(name = "cloakgate.cluster.replica-id") Optional<String> replicaId,
            @ConfigProperty(name = "cloakgate.cluster.heartbeat-interval", defaultValue = "5s") Duration interval,
            @ConfigProperty(name = "cloakgate.cluster.heartbeat-timeout", defaultValue = "30s") Duration timeout) {
        this.database = database;
        this.replicaId = replicaId.map(String::strip).filter(s -> !s.isEmpty());
        this.interval = interval;
        this.timeout = timeout;
    }

    /** The replica id the shared stores record: {@code cloakgate.cluster.replica-id}, or {@code single}. */
    public String replica() {
        return replicaId.orElse(ReplicaHeartbeat.SINGLE);
    }

    /** Opens this process's stores (the first heartbeat written) or stops the start with a stable code. */
    StateStores open(Path data) {
        return database.dataSource().<StateStores>map(db -> {
            try {
                PostgresStateStores stores = new PostgresStateStores(db, replica(), interval, timeout);
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
}
