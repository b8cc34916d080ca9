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
        // issue 10, metrics: each category and outcome exists from the start at 0, so increase() sees the first one
        for (Category c : Category.values()) {
            metrics.counter("cloakgate.cloaked", "tenant", tenant, "category", c.name());
            metrics.counter("cloakgate.tripwire", "tenant", tenant, "category", c.name());
            metrics.counter("cloakgate.raw_pii", "tenant", tenant, "category", c.name());
        }
        for (String outcome : java.util.List.of("restored", "refused", "planted")) {
            metrics.counter("cloakgate.token.cross_upstream", "tenant", tenant, "outcome", outcome);
        }
        for (String outcome : java.util.List.of("text", "binary_not_text", "withheld_over_limit", "withheld_too_deep")) {
            metrics.counter("cloakgate.base64", "tenant", tenant, "outcome", outcome);
        }
    }

    public Cloak session(String sessionId) {
        return new Cloak(this, sessionId);
    }

    public Detection detection() {
        return detection;
    }
}
