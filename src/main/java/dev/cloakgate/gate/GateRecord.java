package dev.cloakgate.gate;

import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.Evidence;

/** The gate's evidence for one session: each decision and each operation outcome, as ledger entries. */
public final class GateRecord {
    private final Evidence evidence;
    private final String tenant;
    private final String session;

    public GateRecord(Evidence evidence, String tenant, String session) {
        this.evidence = evidence;
        this.tenant = tenant;
        this.session = session;
    }

    public void allowed(String upstream, String tool, String release, ActionBoundary.Pass pass) {
        evidence.record(new Event.GateDecided(tenant, session, upstream, tool, release, "allow", null, null,
                pass == null || pass.approval() == null ? null : pass.approval().envelopeDigest(),
                pass == null ? null : pass.operationId()));
    }

    /** Refused ({@code warn} false) or, in warn mode, forwarded with the violation on record. */
    public void denied(String upstream, String tool, String release, String reason, String gatePath, boolean warn) {
        evidence.record(new Event.GateDecided(tenant, session, upstream, tool, release, warn ? "warn" : "block", reason,
                gatePath, null, null));
    }

    public void settled(String tool, String release, String operationId, String state) {
        evidence.record(new Event.OperationSettled(tenant, session, tool, release, operationId, state));
    }
}
