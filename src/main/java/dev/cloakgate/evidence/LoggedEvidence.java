package dev.cloakgate.evidence;

import org.jboss.logging.Logger;

/** Writes events to the log at info (they hold no values, so they may): the default until a ledger exists. */
public final class LoggedEvidence implements Evidence {
    private static final Logger LOG = Logger.getLogger("cloakgate.evidence");

    @Override
    public void record(Event event) {
        if (event instanceof Event.Cloaked c && c.tripwire().isEmpty()) {
            LOG.debugf("%s", event);
        } else {
            LOG.infof("%s", event);
        }
    }
}
