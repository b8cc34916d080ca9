package dev.cloakgate.server;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the tenant files are loaded and the session registry exists; not ready once shutting down. */
@Readiness
@ApplicationScoped
public class TenantsReadiness implements HealthCheck {
    @Inject
    Gateway gateway;

    @Override
    public HealthCheckResponse call() {
        boolean up = gateway.tenants() != null && gateway.sessions() != null && !gateway.draining();
        var b = HealthCheckResponse.named("tenants").status(up);
        if (gateway.draining()) {
            b.withData("shutting_down", true); // so load balancers stop sending new sessions first
        }
        if (up) {
            b.withData("tenants", gateway.tenants().all().size()).withData("sessions", gateway.sessions().size());
        }
        return b.build();
    }
}
