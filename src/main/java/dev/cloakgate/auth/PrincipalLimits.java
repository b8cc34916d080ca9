package dev.cloakgate.auth;

/**
 * What one principal may take of a tenant, across all its sessions: requests per minute and sessions open at
 * once. They sit beside the per-session and per-tenant budgets of the policy and bound what one caller (one
 * service account of many replicas, one leaked token) can take from the others.
 *
 * @param callsPerMinute JSON-RPC requests and notifications (initialize, lists, calls...) per minute; {@code 0} means no
 *        limit
 * @param sessions sessions open at once; {@code 0} means no limit
 */
public record PrincipalLimits(int callsPerMinute, int sessions) {
    public static final PrincipalLimits DEFAULTS = new PrincipalLimits(3000, 64);
    public static final PrincipalLimits NONE = new PrincipalLimits(0, 0);

    public PrincipalLimits {
        if (callsPerMinute < 0 || sessions < 0) {
            throw new IllegalArgumentException("limits are not negative");
        }
    }
}
