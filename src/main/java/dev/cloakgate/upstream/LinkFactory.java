package dev.cloakgate.upstream;

import dev.cloakgate.tenant.UpstreamConfig;

/** Creates the link for an upstream's transport; one per (session, upstream) connection attempt. */
@FunctionalInterface
public interface LinkFactory {
    /** @param limit the largest message the link accepts from the upstream */
    UpstreamLink create(UpstreamConfig config, String label, MessageLimit limit, UpstreamLink.Inbound inbound);
}
