package dev.cloakgate.upstream.oauth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The authorization requests an operator has started and not finished: each {@code state} is random, names one
 * tenant's upstream and its PKCE verifier, is used at most once and expires. A state that is unknown, used or
 * expired is refused; the oldest are dropped beyond a bound, so starting connections cannot exhaust memory.
 */
public final class ConnectStates {
    private static final int MAX = 1000;

    /**
     * One started authorization: where it belongs and what finishes it. {@code issuer} is the authorization server it
     * was sent to: only that server's code is redeemed, and only at that server. {@link #toString()} shows no secret.
     */
    public record Pending(String tenant, String upstream, Pkce pkce, String redirectUri, String scope, String issuer,
            Instant expires, UpstreamAuthorizer authorizer) {
        @Override
        public String toString() {
            return "Pending[" + tenant + "/" + upstream + ", expires=" + expires + "]";
        }
    }

    private final Clock clock;
    private final Duration lifetime;
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    /** Issue 17: this replica's id, which begins each state it makes (null in one process). */
    private final String replica;

    public ConnectStates(Clock clock, Duration lifetime) {
        this(clock, lifetime, null);
    }

    /**
     * @param replica this replica's id, or null: in a cluster the authorization server's redirect may reach any
     *                replica, and the state names the one that holds the pending connection (its PKCE verifier and
     *                the client it registered never leave it), so the callback can be sent there
     */
    public ConnectStates(Clock clock, Duration lifetime, String replica) {
        this.clock = clock;
        this.lifetime = lifetime;
        this.replica = replica;
    }

    /** Issue 17: the replica a state names ({@code <replica>.<random>}), or null for a state of one process. */
    public static String owner(String state) {
        int dot = state == null ? -1 : state.indexOf('.');
        return dot <= 0 ? null : state.substring(0, dot);
    }

    /** Registers a started authorization; returns its state. */
    public synchronized String add(String tenant, String upstream, Pkce pkce, String redirectUri, String scope,
            String issuer, UpstreamAuthorizer authorizer) {
        sweep();
        while (pending.size() >= MAX) {
            Iterator<String> it = pending.keySet().iterator();
            it.next();
            it.remove();
        }
        String state = replica == null ? Pkce.random(24) : replica + "." + Pkce.random(24);
        pending.put(state, new Pending(tenant, upstream, pkce, redirectUri, scope, issuer, clock.instant().plus(lifetime),
                authorizer));
        return state;
    }

    /** Takes a state once: null when unknown, already used or expired. */
    public synchronized Pending take(String state) {
        if (state == null) {
            return null;
        }
        Pending p = pending.remove(state);
        return p == null || !clock.instant().isBefore(p.expires()) ? null : p;
    }

    private void sweep() {
        Instant now = clock.instant();
        pending.values().removeIf(p -> !now.isBefore(p.expires()));
    }
}
