package dev.cloakgate.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.upstream.SharedChild;
import dev.cloakgate.upstream.SharedChildren;

/**
 * What each tenant holds of the gateway: sessions, and stdio children (one per session for each of its stdio
 * upstreams, for the session's lifetime; one per protocol version for each shared upstream, while a session holds it).
 * A session is admitted whole or refused before anything is spawned, with the stable code of the limit it met: the
 * gateway's own ceiling ({@code too_many_sessions}), its tenant's sessions ({@code too_many_tenant_sessions}) or its
 * tenant's children ({@code too_many_stdio_children}). It counts from admission, the handshake included, so
 * initializes that arrive together cannot all pass; and one tenant at its limits refuses only itself.
 */
final class TenantQuotas {

    sealed interface Admission permits Granted, Refused {
    }

    record Refused(String reason, String message) implements Admission {
    }

    /** An admitted session's holdings, given back once when it closes. */
    final class Granted implements Admission {
        private final String tenant;
        private final int ownChildren;
        private final Map<String, SharedChildren.Lease> leases;
        private boolean released;

        private Granted(String tenant, int ownChildren, Map<String, SharedChildren.Lease> leases) {
            this.tenant = tenant;
            this.ownChildren = ownChildren;
            this.leases = leases;
        }

        /** The shared children this session holds, by upstream name. */
        Map<String, SharedChildren.Lease> leases() {
            return leases;
        }

        void release() {
            TenantQuotas.this.release(this);
        }
    }

    private final GatewaySettings settings;
    private final SharedChildren shared;
    /** Makes a tenant's shared child for a protocol version. */
    @FunctionalInterface
    interface ChildMaker {
        SharedChild make(TenantConfig tenant, UpstreamConfig.Stdio config, String protocolVersion);
    }

    private final ChildMaker children;
    private int total;
    /** By tenant: sessions held, children held. */
    private final Map<String, int[]> held = new HashMap<>();

    TenantQuotas(GatewaySettings settings, SharedChildren shared, ChildMaker children) {
        this.settings = settings;
        this.shared = shared;
        this.children = children;
    }

    synchronized Admission admit(TenantConfig tenant, String version) {
        int sessionCap = tenant.limits().maxSessions().orElse(settings.maxSessionsPerTenant());
        int childCap = tenant.limits().maxStdioChildren().orElse(settings.maxStdioChildrenPerTenant());
        int[] h = held.computeIfAbsent(tenant.name(), t -> new int[2]);
        if (total >= settings.maxSessions()) {
            return new Refused("too_many_sessions", "the gateway is at its session limit; retry later");
        }
        if (h[0] >= sessionCap) {
            return new Refused("too_many_tenant_sessions", "this tenant is at its limit of " + sessionCap
                    + " sessions (limits.max_sessions, or cloakgate.session.max-sessions-per-tenant); end one (DELETE) or"
                    + " retry later");
        }
        int own = 0;
        int made = 0;
        List<UpstreamConfig.Stdio> sharedOnes = new ArrayList<>();
        for (UpstreamConfig cfg : tenant.upstreams().values()) {
            if (cfg instanceof UpstreamConfig.Stdio s && s.shared()) {
                sharedOnes.add(s);
                made += shared.wouldMake(tenant.name(), s, version) ? 1 : 0;
            } else if (cfg instanceof UpstreamConfig.Stdio) {
                own++;
            }
        }
        if (h[1] + own + made > childCap) {
            return new Refused("too_many_stdio_children", "this tenant's sessions hold " + h[1] + " of its " + childCap
                    + " stdio children and a new session needs " + (own + made) + " (limits.max_stdio_children, or"
                    + " cloakgate.upstream.max-stdio-children-per-tenant); end a session (DELETE) or retry later");
        }
        total++;
        h[0]++;
        h[1] += own + made;
        Map<String, SharedChildren.Lease> leases = new LinkedHashMap<>();
        for (UpstreamConfig.Stdio s : sharedOnes) {
            leases.put(s.name(), shared.lease(tenant.name(), s, version, () -> children.make(tenant, s, version)));
        }
        return new Granted(tenant.name(), own, leases);
    }

    private synchronized void release(Granted g) {
        if (g.released) {
            return;
        }
        g.released = true;
        total--;
        int[] h = held.get(g.tenant);
        h[0]--;
        h[1] -= g.ownChildren;
        for (SharedChildren.Lease l : g.leases.values()) {
            if (l.release()) {
                h[1]--;
            }
        }
    }

    /** Sessions the tenant holds (open or opening) and the stdio children they hold. */
    synchronized SessionRegistry.Held held(String tenant) {
        int[] h = held.getOrDefault(tenant, new int[2]);
        return new SessionRegistry.Held(h[0], h[1]);
    }
}
