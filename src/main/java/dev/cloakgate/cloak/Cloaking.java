package dev.cloakgate.cloak;

import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.tenant.TokenScope;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A tenant's cloaking: its detection, typed walker, tripwire and restorer, shared by all its sessions. Each
 * session gets its own {@link Cloak} and vault.
 */
public final class Cloaking {
    final String tenant;
    final Detection detection;
    final Walker walker;
    final Tripwire tripwire;
    final Restorer restorer;
    final TokenScope scope;
    final int vaultMaxEntries;
    final MeterRegistry metrics;
    final Evidence evidence;
    /**
     * Token shapes upstreams declared in any session of the tenant (bounded): the parent of each session's. Passed
     * on from the cloaking a reload replaces, so a new configuration never issues a token an upstream declared.
     */
    final PlantedTokens declared;

    public Cloaking(String tenant, Detection detection, TokenScope scope, int vaultMaxEntries, MeterRegistry metrics,
            Evidence evidence) {
        this(tenant, detection, scope, vaultMaxEntries, metrics, evidence, new PlantedTokens());
    }

    Cloaking(String tenant, Detection detection, TokenScope scope, int vaultMaxEntries, MeterRegistry metrics,
            Evidence evidence, PlantedTokens declared) {
        this.declared = declared;
        this.tenant = tenant;
        this.detection = detection;
        this.walker = new Walker(detection);
        this.tripwire = new Tripwire(detection, tenant);
        this.restorer = new Restorer(detection);
        this.scope = scope;
        this.vaultMaxEntries = vaultMaxEntries;
        this.metrics = metrics;
        this.evidence = evidence;
    }

    public Cloak session(String sessionId) {
        return new Cloak(this, sessionId);
    }

    public Detection detection() {
        return detection;
    }
}
