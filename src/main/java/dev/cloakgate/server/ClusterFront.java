package dev.cloakgate.server;

import java.time.Clock;

import org.jboss.logging.Logger;

import dev.cloakgate.cluster.ClusterSettings;
import dev.cloakgate.cluster.PeerSignature;
import dev.cloakgate.cluster.SessionRoute;
import dev.cloakgate.cluster.SessionRouter;
import dev.cloakgate.evidence.LogTag;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

/**
 * Issue 17: what the MCP front does with a request for a session in cluster mode, after the agent's credential was
 * checked and before anything of the session is touched: serve it here, forward it to the owner, or refuse it. A
 * request that says it is a forward must carry a valid peer signature, and is never forwarded again.
 */
final class ClusterFront {
    private static final Logger LOG = Logger.getLogger(ClusterFront.class);

    /** How a refusal is answered (the front's JSON-RPC error bodies). */
    @FunctionalInterface
    interface Refusals {
        void peerAuthFailed(RoutingContext rc);
    }

    /** Answers a request for a session that is not (or no longer) anywhere: 404, as the front does for its own. */
    @FunctionalInterface
    interface Unknown {
        void unknownSession(RoutingContext rc);
    }

    private final SessionRouter router;
    private final PeerSignature signature;
    private final PeerRelay relay;
    private final MeterRegistry metrics;

    /** @param cluster null for one process: every request is served here, and any peer header is refused */
    ClusterFront(Vertx vertx, ClusterSettings cluster, GatewayConfig.Cluster config, SessionRouter router,
            int maxConnections, MeterRegistry metrics) {
        this.router = router;
        this.metrics = metrics;
        this.signature = cluster == null ? null
                : new PeerSignature(cluster.key(), Clock.systemUTC(), config.peerAuthWindow());
        this.relay = cluster == null ? null
                : new PeerRelay(vertx, signature, cluster.replicaId(), config.forwardConnectTimeout(),
                        config.forwardIdleTimeout(), maxConnections);
    }

    /** What became of a request. */
    enum Routed {
        /** Served here as before: this replica owns the session, or the id is unknown (the registry answers 404). */
        HERE,
        /** Sent to its owner; the answer is being relayed. */
        FORWARDED,
        /** Refused here (a peer header that does not verify, or a forward this replica cannot serve). */
        ANSWERED
    }

    /**
     * Where the request goes.
     *
     * @param body the request's body as read ({@code Buffer.buffer()} for GET and DELETE)
     */
    Routed route(RoutingContext rc, String tenant, String sessionId, Buffer body, Refusals refusals, Unknown unknown) {
        String peer = rc.request().getHeader(PeerSignature.HEADER);
        boolean forwarded = false;
        if (peer != null) {
            PeerSignature.Check check = signature == null ? new PeerSignature.Refused("not_clustered")
                    : signature.verify(peer, new PeerSignature.Signed(rc.request().method().name(), rc.request().uri(),
                            sessionId, body.getBytes()));
            if (check instanceof PeerSignature.Refused r) {
                // who sent it and what it carried are not logged: only that it failed, why, and where it came from
                LOG.warnf("refused a %s request to tenant %s claiming to be a replica's forward (%s: %s) from %s",
                        rc.request().method().name(), tenant, PeerSignature.HEADER, r.reason(),
                        rc.request().remoteAddress() == null ? "?" : rc.request().remoteAddress().hostAddress());
                count(tenant, "peer_auth_failed");
                refusals.peerAuthFailed(rc);
                return Routed.ANSWERED;
            }
            forwarded = true;
        }
        if (sessionId == null || !router.clustered()) {
            return Routed.HERE;
        }
        SessionRoute route = router.route(tenant, sessionId);
        if (route instanceof SessionRoute.Here) {
            return Routed.HERE;
        }
        if (forwarded) {
            // the forwarder thought this replica owns the session and this replica thinks not: never a second hop
            LOG.warnf("a forwarded request for session %s does not belong here; answered as unknown (no second hop)",
                    LogTag.of(sessionId));
            count(tenant, "second_hop_refused");
            unknown.unknownSession(rc);
            return Routed.ANSWERED;
        }
        if (route instanceof SessionRoute.Owner owner) {
            count(tenant, "forwarded");
            relay.forward(rc, owner.base().toString(), sessionId, body, () -> {
                count(tenant, "owner_unreachable");
                unknown.unknownSession(rc);
            });
            return Routed.FORWARDED;
        }
        // not an id of this cluster for this tenant: no local session has it either, and the front answers it as it
        // answers any unknown id (404; 400 for an initialize that carries one), exactly as one process would
        count(tenant, "unknown_session");
        return Routed.HERE;
    }

    /** {@code cloakgate_cluster_routed_total{tenant, route}}: what cluster mode did with requests that named a session. */
    private void count(String tenant, String route) {
        metrics.counter("cloakgate.cluster.routed", "tenant", tenant, "route", route).increment();
    }
}
