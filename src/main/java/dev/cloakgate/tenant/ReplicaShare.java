package dev.cloakgate.tenant;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

import dev.cloakgate.auth.AuthSettings;
import dev.cloakgate.auth.PrincipalLimits;

/**
 * Issue 17: a replica's share of the limits that span sessions, when {@code replicas} replicas serve a tenant
 * ({@code cloakgate.cluster.replicas}). A session lives on one replica, so its own limits stay exact; a limit over many
 * sessions (a tenant's sessions, stdio children and calls per minute, a principal's sessions and calls per minute) is
 * enforced by each replica on its share, {@code ceil(limit / replicas)}: together the replicas admit at most about the
 * limit (at most {@code replicas - 1} more, from the rounding up), and fewer when the load is uneven. {@code 0} (no
 * limit) stays {@code 0}. Applied once, to each accepted tenant configuration ({@link #apply}), and to the gateway-wide
 * per-tenant defaults; the tool breaker's error count is not a rate and is not divided (each replica opens its own).
 */
public record ReplicaShare(int replicas) {
    public static final ReplicaShare ONE = new ReplicaShare(1);

    public ReplicaShare {
        if (replicas < 1) {
            throw new IllegalArgumentException("cloakgate.cluster.replicas is at least 1");
        }
    }

    /** This replica's share of a limit over many sessions. */
    public int of(int limit) {
        return limit <= 0 ? limit : (limit + replicas - 1) / replicas;
    }

    /** The configuration as this replica enforces it: every limit over many sessions replaced by its share. */
    public TenantConfig apply(TenantConfig c) {
        if (replicas == 1) {
            return c;
        }
        TenantLimits limits = new TenantLimits(of(c.limits().maxSessions()), of(c.limits().maxStdioChildren()));
        PolicySettings policy = c.policy();
        if (policy != null) {
            PolicySettings.Budget b = policy.budget();
            policy = new PolicySettings(policy.stripInstructions(), policy.toolAllowlist(), policy.destructiveTools(),
                    policy.pathRoots(), policy.pathBase(), policy.egressAllowlist(), b == null ? null
                            : new PolicySettings.Budget(b.sessionCalls(), b.toolCalls(), of(b.tenantCallsPerMinute()),
                                    b.outputBytes(), b.breakerErrors(), b.breakerSeconds()),
                    policy.disabled());
        }
        return new TenantConfig(c.name(), c.upstreams(), c.namespace(), c.digest(), c.sanitize(), c.detection(),
                c.tokenScope(), c.vaultMaxEntries(), policy, c.auth() == null ? null : apply(c.auth()), limits, c.gate());
    }

    private AuthSettings apply(AuthSettings a) {
        Map<String, AuthSettings.PrincipalSettings> principals = new LinkedHashMap<>();
        a.principals().forEach((name, p) -> principals.put(name, new AuthSettings.PrincipalSettings(p.name(), p.roles(),
                p.tools(), p.tokenSha256(), p.tokenFile(), p.jwt(), of(p.limits()))));
        AuthSettings.OAuthSettings o = a.oauth();
        AuthSettings.OAuthSettings oauth = o == null ? null : new AuthSettings.OAuthSettings(o.servers(), o.scopesSupported(),
                o.roleScopes(), o.principal(), o.tools(), of(o.limits()));
        return new AuthSettings(a.open(), principals, a.issuers(), of(a.defaults()), oauth);
    }

    private PrincipalLimits of(PrincipalLimits l) {
        return l == null ? null : new PrincipalLimits(of(l.callsPerMinute()), of(l.sessions()));
    }

    private OptionalInt of(OptionalInt limit) {
        return limit.isPresent() ? OptionalInt.of(of(limit.getAsInt())) : limit;
    }
}
