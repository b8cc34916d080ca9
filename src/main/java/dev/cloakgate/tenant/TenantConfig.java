package dev.cloakgate.tenant;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tenant as loaded from {@code {tenants-dir}/{name}.json}. {@code upstreams} keeps the file's order, which is
 * the order lists are merged in. {@code digest} is the SHA-256 of the file's bytes.
 */
public record TenantConfig(String name, Map<String, UpstreamConfig> upstreams, Namespace namespace, String digest) {
    public TenantConfig {
        upstreams = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(upstreams));
    }
}
