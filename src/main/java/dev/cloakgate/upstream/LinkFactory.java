package dev.cloakgate.upstream;

import dev.cloakgate.tenant.UpstreamConfig;

/** Creates the link for an upstream's transport; one per (session, upstream) connection attempt. */
@FunctionalInterface
public interface LinkFactory {
    UpstreamLink create(UpstreamConfig config, String label, UpstreamLink.Inbound inbound);
}
