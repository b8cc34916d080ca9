package dev.cloakgate.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Optional;

import dev.cloakgate.cluster.ClusterSettings;
import dev.cloakgate.cluster.PeerSignature;
import dev.cloakgate.upstream.oauth.ConnectStates;

/**
 * Issue 17: an authorization server's redirect reaches whichever replica the Service picks, but the pending connection
 * (its PKCE verifier, the client registered for it) lives only on the replica that started it, whose id begins the
 * state. This sends the redirect there, signed as every forward between replicas is, and relays the small answer; a
 * forwarded redirect is never sent on again.
 */
final class OAuthCallbackRelay {
    /** What to do with a redirect. */
    sealed interface Route {
        /** This replica holds the state, or no replica's id is in it (one process): handle it here. */
        record Here() implements Route {
        }

        /** Answered already (relayed from the owner, or refused). */
        record Answered(int status, String contentType, byte[] body) implements Route {
        }

        /** Refused with this code and message. */
        record Refused(int status, String code, String message) implements Route {
        }
    }

    private static final int MAX_ANSWER = 64 * 1024;
    private final ClusterSettings cluster;
    private final PeerSignature signature;
    private final HttpClient http;
    private final GatewayConfig.Cluster config;

    /** @param cluster null in one process (every redirect is handled here) */
    OAuthCallbackRelay(ClusterSettings cluster, GatewayConfig.Cluster config) {
        this.cluster = cluster;
        this.config = config;
        this.signature = cluster == null ? null : new PeerSignature(cluster.key(), Clock.systemUTC(), config.peerAuthWindow());
        this.http = cluster == null ? null
                : HttpClient.newBuilder().connectTimeout(config.forwardConnectTimeout())
                        .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * @param pathAndQuery the request's raw path and query, as received (what the signature covers)
     * @param peerHeader   the request's {@link PeerSignature#HEADER}, or null
     */
    Route route(String state, String pathAndQuery, String peerHeader) {
        String owner = ConnectStates.owner(state);
        if (peerHeader != null) {
            if (signature == null || signature.verify(peerHeader, signed(pathAndQuery, state)) instanceof PeerSignature.Refused) {
                return new Route.Refused(403, "peer_auth_failed", "not a forward by a replica of this cluster");
            }
            // a forward is handled here or nowhere: never a second hop
            return cluster.replicaId().equals(owner) ? new Route.Here()
                    : new Route.Refused(400, "oauth_state_invalid", "unknown, used or expired state: start the"
                            + " connection again through the admin API");
        }
        if (cluster == null || owner == null || owner.equals(cluster.replicaId())) {
            return new Route.Here();
        }
        Optional<URI> base = cluster.peer(owner);
        if (base.isEmpty()) {
            return new Route.Refused(400, "oauth_state_invalid", "unknown, used or expired state: start the connection"
                    + " again through the admin API");
        }
        HttpRequest forward = HttpRequest.newBuilder(URI.create(base.get() + pathAndQuery)).GET()
                .timeout(config.forwardIdleTimeout())
                .header(PeerSignature.HEADER, signature.sign(cluster.replicaId(), signed(pathAndQuery, state))).build();
        try {
            HttpResponse<InputStream> answer = http.send(forward, HttpResponse.BodyHandlers.ofInputStream());
            byte[] body;
            try (InputStream in = answer.body()) {
                body = in.readNBytes(MAX_ANSWER);
            }
            return new Route.Answered(answer.statusCode(),
                    answer.headers().firstValue("Content-Type").orElse("application/json"), body);
        } catch (IOException e) {
            return new Route.Refused(502, "oauth_owner_unreachable", "the replica that started this connection ("
                    + owner + ") cannot be reached: start the connection again through the admin API");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Route.Refused(502, "oauth_owner_unreachable", "interrupted");
        }
    }

    private static PeerSignature.Signed signed(String pathAndQuery, String state) {
        return new PeerSignature.Signed("GET", pathAndQuery, state == null ? "" : state, new byte[0]);
    }
}
