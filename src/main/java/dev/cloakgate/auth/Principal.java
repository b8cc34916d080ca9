package dev.cloakgate.auth;

import java.util.Set;

/**
 * Who holds a credential in one tenant: a name from the tenant file (configuration, never data, so it may be
 * logged), the roles it holds, and optionally the tools it may call. Sessions are bound to a principal, not to a
 * credential: a service-account token rotated every hour keeps its sessions.
 *
 * @param tools exposed tool names ({@code fs__read_text_file}) this principal may see and call; null means all
 */
public record Principal(String tenant, String name, Set<Role> roles, Set<String> tools, PrincipalLimits limits) {
    /** The name of whoever reaches a tenant with {@code "auth": {"mode": "none"}}; no configured name has a {@code ~}. */
    public static final String ANONYMOUS = "~anonymous";
    /**
     * Issue 16: between an OAuth principal template's name and the digest of one subject ({@code people~3f2a...}); no
     * configured name has it, so a subject's principal is never a configured one.
     */
    public static final String SUBJECT_SEPARATOR = "~";

    public Principal {
        roles = Set.copyOf(roles);
        tools = tools == null ? null : Set.copyOf(tools);
    }

    /** Everyone, as an agent, on a tenant that asks for no credential; no tool subset and no limits. */
    public static Principal anonymous(String tenant) {
        return new Principal(tenant, ANONYMOUS, Set.of(Role.AGENT), null, PrincipalLimits.NONE);
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }

    public boolean anonymous() {
        return ANONYMOUS.equals(name);
    }

    /** Whether this principal may see and call the tool of this exposed name. */
    public boolean mayCall(String exposedTool) {
        return tools == null || tools.contains(exposedTool);
    }

    /** The same principal of the same tenant (what binds a session). */
    public boolean sameAs(Principal other) {
        return other != null && tenant.equals(other.tenant) && name.equals(other.name);
    }
}
