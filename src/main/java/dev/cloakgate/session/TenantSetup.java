package dev.cloakgate.session;

import dev.cloakgate.cloak.Cloaking;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.tenant.TenantConfig;

/**
 * One accepted configuration of a tenant with everything built from it that a new session is made of. A session
 * keeps the setup it was created with until it ends; a reload of the tenant file installs a new setup for the
 * sessions created after it. Each part is checked against the configuration, so a tenant that asks for cloaking
 * or a policy never gets a session without it.
 *
 * @param cloaking null exactly when the tenant does not sanitize
 * @param policy null exactly when the tenant has no policy block
 * @param calls where tools/calls forwarded without a policy are recorded
 * @param gate null exactly when the tenant has no gate block (issue 11)
 */
public record TenantSetup(TenantConfig config, Cloaking cloaking, Policy policy, CallLog calls, TenantGate gate) {
    public TenantSetup(TenantConfig config, Cloaking cloaking, Policy policy, CallLog calls) {
        this(config, cloaking, policy, calls, null);
    }

    public TenantSetup {
        if (config.gate() != null && gate == null) {
            throw new IllegalStateException("tenant " + config.name() + " has a gate block but no gate set up");
        }
        // fail closed: a tenant that asks for cloaking or a policy never gets a session without it
        if (config.sanitize() && cloaking == null) {
            throw new IllegalStateException("tenant " + config.name() + " sanitizes but has no cloaking set up");
        }
        if (config.policy() != null && policy == null) {
            throw new IllegalStateException("tenant " + config.name() + " has a policy block but no policy set up");
        }
        calls = calls == null ? CallLog.NONE : calls;
    }
}
