package dev.cloakgate.server.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.cloakgate.auth.Access;
import dev.cloakgate.auth.AuthRegistry;
import dev.cloakgate.auth.Principal;
import dev.cloakgate.auth.Role;
import dev.cloakgate.server.AccessRefusals;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.tenant.TenantConfig;

/**
 * The one check in front of every admin endpoint: the bearer credential is a principal of the tenant holding the
 * endpoint's role, asked before anything about the tenant is said (issue 15: a tenant that does not exist refuses
 * every credential as a bad one, 401, never 404). Refusals are those of the MCP endpoint ({@link Access}): a
 * credential of another tenant is a bad credential here too, and every refusal of a known tenant is counted by
 * {@link AccessRefusals}.
 */
@ApplicationScoped
public class AdminAccess {

    /** Who is asking, in which tenant. */
    public record Caller(TenantConfig tenant, Principal principal) {
        public String name() {
            return principal.name();
        }
    }

    @Inject
    Gateway gateway;

    @Inject
    AccessRefusals refusals;

    /** The caller, or an {@link AdminRefusal} to answer. */
    public Caller require(String tenantName, String authorization, Role role) {
        // a tenant whose file was removed keeps its ledger, sessions and pins, and its operators and auditors their access
        TenantConfig tenant = gateway.tenants() == null ? null : gateway.tenants().lastAccepted(tenantName).orElse(null);
        if (tenant == null) {
            // issue 15: the credential first; an unknown tenant is refused as a bad credential, never as 404, so only a
            // principal of a tenant learns anything about it (not counted: the name is the client's text)
            Access.Refused r = AuthRegistry.unknownTenant(authorization);
            throw new AdminRefusal(r.status(), r.reason(), r.message(), r.challenge());
        }
        Access access = gateway.access().check(Gateway.authSource(tenant), authorization, role);
        if (access instanceof Access.Refused r) {
            refusals.record(tenant.name(), r);
            throw new AdminRefusal(r.status(), r.reason(), r.message(), r.challenge());
        }
        return new Caller(tenant, ((Access.Granted) access).principal());
    }
}
