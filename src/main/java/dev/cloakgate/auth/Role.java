package dev.cloakgate.auth;

import java.util.Locale;
import java.util.Optional;

/**
 * What a principal may do in one tenant. Each surface asks for exactly one role: the MCP endpoint for
 * {@code agent}, the ledger export for {@code auditor}; operations (pins, sessions, tenant status) for
 * {@code operator} and approval receipts for {@code approver} are checked by the admin surface.
 */
public enum Role {
    AGENT, OPERATOR, APPROVER, AUDITOR;

    /** The name in the tenant file and in messages. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> of(String code) {
        for (Role r : values()) {
            if (r.code().equals(code)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
