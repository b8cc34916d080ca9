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
            String file = tenantsDir.resolve(t.name() + ".json").toString();
            Detection detection;
            try {
                detection = factory.build(t.detection());
            } catch (DetectionFactory.SetupException e) {
                throw new TenantConfigException(file, e.key(), e.getMessage());
            }
            List<String> failures = SelfCheck.run(detection);
            evidence.record(new Event.SelfChecked(t.name(), detection.categories().stream().map(Object::toString).sorted()
                    .toList(), failures.size()));
            if (!failures.isEmpty()) {
                throw new TenantConfigException(file, "$.detection", "detection self-check failed, refusing to run"
                        + " without the protection it claims: " + String.join("; ", failures));
            }
            out.put(t.name(), new Cloaking(t.name(), detection, t.tokenScope(), t.vaultMaxEntries(), metrics, evidence));
        }
        return out;
    }
}
