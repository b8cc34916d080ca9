package dev.cloakgate.server;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.cloakgate.auth.Access;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts and logs every refusal of a caller by {@link Access} or by a per-principal limit (issue 10): the log gets
 * the tenant and the internal reason ({@code token_expired}, {@code audience_mismatch}...), which the caller never
 * sees; never the credential. {@code cloakgate_auth_refused_total{tenant,reason}} counts them; both labels are
 * configuration or fixed codes, never client text (an unknown tenant is not counted under its name).
 */
@ApplicationScoped
public class AccessRefusals {
    private static final Logger LOG = Logger.getLogger(AccessRefusals.class);

    @Inject
    MeterRegistry metrics;

    /** A refusal by {@link Access}; unknown tenants are not counted (the name would be the client's text). */
    public void record(String tenant, Access.Refused r) {
        if (r.status() == 404) {
            return;
        }
        String reason = r.failure() != null ? r.failure().code() : r.reason();
        LOG.debugf("auth: tenant %s refused a caller: %s (%d %s)", tenant, reason, r.status(), r.reason());
        metrics.counter("cloakgate.auth.refused", "tenant", tenant, "reason", reason).increment();
    }

    /** A request over a principal's limit; the principal is named (a name from the tenant file). */
    public void limited(String tenant, String principal, String reason) {
        LOG.debugf("auth: tenant %s refused a request of principal %s: %s", tenant, principal, reason);
        metrics.counter("cloakgate.auth.refused", "tenant", tenant, "reason", reason).increment();
    }
}
