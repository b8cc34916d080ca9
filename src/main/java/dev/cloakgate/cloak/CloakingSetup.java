package dev.cloakgate.cloak;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantConfigException;
import dev.cloakgate.tenant.TenantRegistry;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Builds every sanitizing tenant's cloaking and proves it works: detection is built (models loaded) and the
 * self-check run through it. Any failure names the tenant file and key, and the gateway does not start; the
 * same runs for {@code --check}.
 */
public final class CloakingSetup {
    private final DetectionFactory factory = new DetectionFactory();

    public Map<String, Cloaking> build(TenantRegistry tenants, Path tenantsDir, MeterRegistry metrics, Evidence evidence)
            throws TenantConfigException {
        Map<String, Cloaking> out = new TreeMap<>();
        for (TenantConfig t : tenants.all().values()) {
            if (!t.sanitize()) {
                continue;
            }
            Checked checked = check(t, tenantsDir.resolve(t.name() + ".json").toString());
            evidence.record(checked.event());
            checked.orRefuse();
            out.put(t.name(), cloaking(checked, metrics, evidence, null));
        }
        return out;
    }

    /** A tenant's detection, built, and what the self-check found wrong with it (nothing, when it works). */
    public record Checked(TenantConfig tenant, String file, Detection detection, List<String> failures) {
        public Checked {
            failures = List.copyOf(failures);
        }

        /** The self-check as evidence: the categories checked and how many failed. */
        public Event.SelfChecked event() {
            return new Event.SelfChecked(tenant.name(), detection.categories().stream().map(Object::toString).sorted()
                    .toList(), failures.size());
        }

        /** Refuses, naming the file, when the self-check found anything. */
        public void orRefuse() throws TenantConfigException {
            if (!failures.isEmpty()) {
                throw new TenantConfigException(file, "$.detection", "detection self-check failed, refusing to run"
                        + " without the protection it claims: " + String.join("; ", failures));
            }
        }
    }

    /** Builds the tenant's detection (models loaded) and runs the self-check through it; records nothing. */
    public Checked check(TenantConfig t, String file) throws TenantConfigException {
        Detection detection;
        try {
            detection = factory.build(t.detection());
        } catch (DetectionFactory.SetupException e) {
            throw new TenantConfigException(file, e.key(), e.getMessage());
        }
        return new Checked(t, file, detection, SelfCheck.run(detection));
    }

    /**
     * The cloaking of a tenant whose self-check passed (at start and at each reload of its file). {@code previous}
     * is the cloaking this one replaces, or null: the token shapes its upstreams declared carry over.
     */
    public Cloaking cloaking(Checked checked, MeterRegistry metrics, Evidence evidence, Cloaking previous)
            throws TenantConfigException {
        checked.orRefuse();
        TenantConfig t = checked.tenant();
        return new Cloaking(t.name(), checked.detection(), t.tokenScope(), t.vaultMaxEntries(), metrics, evidence,
                previous == null ? new PlantedTokens() : previous.declared);
    }
}
