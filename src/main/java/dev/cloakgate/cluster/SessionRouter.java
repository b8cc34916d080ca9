package dev.cloakgate.cluster;

import java.util.Optional;

/**
 * The routing decision for a request that names a session, kept apart from how a forward is carried: one process
 * serves every session itself; a replica serves the sessions it issued and sends the others to their owner.
 */
public final class SessionRouter {
    private static final SessionRoute HERE = new SessionRoute.Here();
    private static final SessionRoute UNKNOWN = new SessionRoute.Unknown();

    private final ClusterSettings cluster;
    private final SessionIdCodec ids;

    /** @param cluster null for one process: every session is served here under the ids of today */
    public SessionRouter(ClusterSettings cluster) {
        this.cluster = cluster;
        this.ids = cluster == null ? null : new SessionIdCodec(cluster.key());
    }

    /** Whether this gateway runs as one replica of several. */
    public boolean clustered() {
        return cluster != null;
    }

    /** A new session id of {@code tenant}, owned by this replica; null for one process (the registry's own ids). */
    public String issue(String tenant) {
        return cluster == null ? null : ids.issue(tenant, cluster.replicaId());
    }

    public SessionRoute route(String tenant, String sessionId) {
        if (cluster == null) {
            return HERE;
        }
        Optional<String> owner = ids.owner(tenant, sessionId);
        if (owner.isEmpty()) {
            return UNKNOWN;
        }
        if (owner.get().equals(cluster.replicaId())) {
            return HERE;
        }
        return cluster.peer(owner.get()).<SessionRoute>map(base -> new SessionRoute.Owner(owner.get(), base))
                .orElse(UNKNOWN);
    }

    public String replicaId() {
        return cluster == null ? null : cluster.replicaId();
    }
}
