package dev.cloakgate.server.admin;

import dev.cloakgate.gate.GateStores;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.server.Gateway;

/** Issue 11: a tenant's action gate as the admin API reaches it, or the {@code no_gate} refusal. */
final class GateOf {
    private GateOf() {
    }

    /** The gate of the version of the tenant's file serving new sessions. */
    static TenantGate current(Gateway gateway, AdminAccess.Caller caller) {
        TenantGate gate = gateway.gate(caller.tenant().name());
        if (gate == null) {
            throw noGate(caller);
        }
        return gate;
    }

    /** The tenant's gate stores: kept for the gateway's life once a version of its file had a gate block. */
    static GateStores stores(Gateway gateway, AdminAccess.Caller caller) {
        GateStores stores = gateway.gateStores(caller.tenant().name());
        if (stores == null) {
            throw noGate(caller);
        }
        return stores;
    }

    static AdminRefusal noGate(AdminAccess.Caller caller) {
        return new AdminRefusal(404, "no_gate", "tenant " + caller.tenant().name() + " has no action gate (no gate block"
                + " in its file)");
    }
}
