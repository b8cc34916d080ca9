package dev.cloakgate.tenant;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.cloakgate.auth.AuthSettings;

/**
 * A tenant as loaded from {@code {tenants-dir}/{name}.json}. {@code upstreams} keeps the file's order, which is
 * the order lists are merged in. {@code digest} is the SHA-256 of the file's bytes.
 *
 * @param sanitize whether personal data is cloaked (default true)
 * @param vaultMaxEntries values a session's vault maps to tokens before cloaking further ones as redacted
 * @param policy the policy block, or null when the tenant has none (no policy engine)
 * @param auth who may call the tenant and in which role (the {@code auth} block); never null
 * @param limits what the tenant may hold of the gateway (sessions, stdio children; the {@code limits} block); never null
 * @param gate the action gate (the {@code gate} block), or null when the tenant has none
 */
public record TenantConfig(String name, Map<String, UpstreamConfig> upstreams, Namespace namespace, String digest,
        boolean sanitize, DetectionSettings detection, TokenScope tokenScope, int vaultMaxEntries,
        PolicySettings policy, AuthSettings auth, TenantLimits limits, GateSettings gate) {
    public static final int DEFAULT_VAULT_MAX_ENTRIES = 10_000;

    public TenantConfig {
        upstreams = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(upstreams));
        auth = auth == null ? AuthSettings.none() : auth;
        limits = limits == null ? TenantLimits.defaults() : limits;
    }

    /** A tenant without a gate. */
    public TenantConfig(String name, Map<String, UpstreamConfig> upstreams, Namespace namespace, String digest,
            boolean sanitize, DetectionSettings detection, TokenScope tokenScope, int vaultMaxEntries,
            PolicySettings policy, AuthSettings auth, TenantLimits limits) {
        this(name, upstreams, namespace, digest, sanitize, detection, tokenScope, vaultMaxEntries, policy, auth, limits,
                null);
    }

    /** A tenant with the gateway-wide limits. */
    public TenantConfig(String name, Map<String, UpstreamConfig> upstreams, Namespace namespace, String digest,
            boolean sanitize, DetectionSettings detection, TokenScope tokenScope, int vaultMaxEntries,
            PolicySettings policy, AuthSettings auth) {
        this(name, upstreams, namespace, digest, sanitize, detection, tokenScope, vaultMaxEntries, policy, auth,
                TenantLimits.defaults(), null);
    }

    /** A tenant with the default cloaking settings and no credential asked of agents. */
    public TenantConfig(String name, Map<String, UpstreamConfig> upstreams, Namespace namespace, String digest) {
        this(name, upstreams, namespace, digest, true, DetectionSettings.defaults(), TokenScope.SESSION,
                DEFAULT_VAULT_MAX_ENTRIES, null, AuthSettings.none(), TenantLimits.defaults(), null);
    }
}
