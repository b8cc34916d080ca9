package dev.cloakgate.server;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Not ready once the ledger has lost an entry (its disk failed or stalled past the queue): a gateway that
 * cannot keep evidence should get no more traffic until an operator looks, rather than act unrecorded.
 */
@Readiness
@ApplicationScoped
public class LedgerReadiness implements HealthCheck {
    @Inject
    Gateway gateway;

    @Override
    public HealthCheckResponse call() {
        long lost = gateway.ledgerLost();
        return HealthCheckResponse.named("ledger").status(lost == 0).withData("lost_entries", lost).build();
    }
}
