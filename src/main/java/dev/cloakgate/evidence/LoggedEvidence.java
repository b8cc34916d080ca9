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
        boolean notable = event instanceof Event.PinAccepted || event instanceof Event.SessionEnded
                || event instanceof Event.CrossUpstreamRestore || event instanceof Event.RawPiiWritten
                || event instanceof Event.Cloaked c && !c.tripwire().isEmpty()
                // issue 11: a gate refusal or warning, an operator's reconciliation, an uploaded approval
                || event instanceof Event.GateDecided g && !"allow".equals(g.action())
                || event instanceof Event.OperationReconciled || event instanceof Event.ApprovalReceived
                || event instanceof Event.OperationSettled o && "unknown".equals(o.state());
        if (notable) {
            LOG.infof("%s", line(event));
        } else if (LOG.isDebugEnabled()) {
            LOG.debugf("%s", line(event));
        }
    }

    /** The event without its session id (a bearer handle): the session appears as its {@link LogTag}. */
    static String line(Event event) {
        if (event instanceof Event.Cloaked c) {
            return "cloaked tenant=" + c.tenant() + " session=" + LogTag.of(c.session()) + " upstream=" + c.upstream()
                    + " method=" + c.method() + " categories=" + c.categories() + " tripwire=" + c.tripwire();
        }
        if (event instanceof Event.CrossUpstreamRestore r) {
            return "cross_upstream_restore tenant=" + r.tenant() + " session=" + LogTag.of(r.session()) + " from=" + r.from()
                    + " to=" + r.to() + " tool=" + r.tool() + " category=" + r.category() + " refused=" + r.refused();
        }
        if (event instanceof Event.RawPiiWritten r) {
            return "raw_pii tenant=" + r.tenant() + " session=" + LogTag.of(r.session()) + " upstream=" + r.upstream()
                    + " tool=" + r.tool() + " categories=" + r.categories();
        }
        if (event instanceof Event.SessionEnded e) {
            return "session_ended tenant=" + e.tenant() + " session=" + LogTag.of(e.session()) + " principal=" + e.principal();
        }
        if (event instanceof Event.GateDecided g) {
            return "mcp_tool_call tenant=" + g.tenant() + " session=" + LogTag.of(g.session()) + " upstream=" + g.upstream()
                    + " tool=" + g.tool() + " action=" + g.action() + " gate_denial=" + g.gateDenial() + " gate_path="
                    + g.gatePath() + " operation_id=" + g.operationId() + " release=" + g.release();
        }
        if (event instanceof Event.OperationSettled o) {
            return "mcp_tool_result tenant=" + o.tenant() + " session=" + LogTag.of(o.session()) + " tool=" + o.tool()
                    + " operation_id=" + o.operationId() + " operation_state=" + o.state();
        }
        if (event instanceof Event.OperationReconciled r) {
            return "operation_reconciled tenant=" + r.tenant() + " principal=" + r.principal() + " operation_id="
                    + r.operationId() + " operation_state=" + r.state();
        }
        if (event instanceof Event.ApprovalReceived a) {
            return "approval_received tenant=" + a.tenant() + " principal=" + a.principal() + " tool=" + a.tool()
                    + " approval=" + a.approval() + " release=" + a.release();
        }
        return event.toString(); // the rest carry no session id, or only its keyed digest
    }
}
