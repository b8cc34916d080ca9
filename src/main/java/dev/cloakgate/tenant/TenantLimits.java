package dev.cloakgate.tenant;

import java.util.OptionalInt;

/**
 * The tenant's {@code limits} block: what one tenant may hold of the gateway, so that a tenant at its limit never
 * refuses another. An absent value takes the gateway-wide default ({@code cloakgate.session.max-sessions-per-tenant},
 * {@code cloakgate.upstream.max-stdio-children-per-tenant}).
 *
 * @param maxSessions sessions open (or opening) at once
 * @param maxStdioChildren stdio children its sessions may hold at once: one per session for each stdio upstream, one
 *        per protocol version for each shared one
 */
public record TenantLimits(OptionalInt maxSessions, OptionalInt maxStdioChildren) {

    public static TenantLimits defaults() {
        return new TenantLimits(OptionalInt.empty(), OptionalInt.empty());
    }
}
