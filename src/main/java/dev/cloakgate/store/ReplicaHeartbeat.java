package dev.cloakgate.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.regex.Pattern;

import javax.sql.DataSource;

/**
 * Issue 17: a replica's sign of life in the shared database ({@code replica_heartbeats}: its id and when it was last
 * seen, in the database's own time, so that the replicas' clocks need not agree). The gateway beats once before it
 * opens any store (so a restarted replica is alive before it records a call) and then every
 * {@code cloakgate.cluster.heartbeat-interval}; {@link PostgresOperationStore#sweepDeadReplicas} reads it.
 */
public final class ReplicaHeartbeat {
    /** A replica id as {@code cloakgate.cluster.replica-id} takes it (a DNS label: a StatefulSet pod name). */
    private static final Pattern REPLICA = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    /** The replica id of the one process of {@code cloakgate.store=postgresql} without a replica id. */
    public static final String SINGLE = "single";

    private final DataSource db;
    private final String replica;

    public ReplicaHeartbeat(DataSource db, String replica) {
        checkReplica(replica);
        this.db = db;
        this.replica = replica;
    }

    static void checkReplica(String replica) {
        if (replica == null || !REPLICA.matcher(replica).matches()) {
            throw new IllegalArgumentException("a replica id is a DNS label: 1-63 of [a-z0-9-], starting and ending alphanumeric");
        }
    }

    /** Records that this replica is alive now. */
    public void beat() {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement("INSERT INTO replica_heartbeats"
                + " (replica, last_seen) VALUES (?, clock_timestamp()) ON CONFLICT (replica) DO UPDATE SET last_seen = excluded.last_seen")) {
            p.setString(1, replica);
            p.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("the heartbeat of replica " + replica + " could not be written: " + e.getMessage(), e);
        }
    }

    public String replica() {
        return replica;
    }
}
