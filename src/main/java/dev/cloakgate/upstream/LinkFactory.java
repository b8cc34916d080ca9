package dev.cloakgate.upstream;

import dev.cloakgate.tenant.UpstreamConfig;

/** Creates the link for an upstream's transport; one per (session, upstream) connection attempt. */
@FunctionalInterface
public interface LinkFactory {
    /** @param limit the largest message the link accepts from the upstream */
    UpstreamLink create(UpstreamConfig config, String label, MessageLimit limit, UpstreamLink.Inbound inbound);

    /**
     * As {@link #create}, for a session whose earlier link to this upstream completed its handshake and has since
     * ended (lost, or released when idle): a restart, which a metrics decorator counts apart from first starts.
     */
    default UpstreamLink recreate(UpstreamConfig config, String label, MessageLimit limit, UpstreamLink.Inbound inbound) {
        return create(config, label, limit, inbound);
    }
}
