package dev.cloakgate.evidence;

import org.jboss.logging.Logger;

/**
 * Writes events to the log (they hold no values, so they may). What an operator should notice (a tripwire
 * catch, a cross-upstream restore, raw PII from the model) at info; the routine rest (every decision, every
 * cloaked answer, start-up records) at debug, since the ledger keeps those.
 */
public final class LoggedEvidence implements Evidence {
    private static final Logger LOG = Logger.getLogger("cloakgate.evidence");

    @Override
    public void record(Event event) {
        boolean notable = event instanceof Event.CrossUpstreamRestore || event instanceof Event.RawPiiWritten
                || event instanceof Event.Cloaked c && !c.tripwire().isEmpty();
        if (notable) {
            LOG.infof("%s", event);
        } else {
            LOG.debugf("%s", event);
        }
    }
}
