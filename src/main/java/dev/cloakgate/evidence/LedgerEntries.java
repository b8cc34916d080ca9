package dev.cloakgate.evidence;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The ledger entry body of each event: its {@code kind} and fields (the ledger adds the envelope). Names,
 * codes and counts only; a session appears as a keyed digest, a payload as its length and keyed digest.
 */
public final class LedgerEntries {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final UnaryOperator<String> sessionDigest;
    /** Issue 11: the hash of the release the tenant's gate enforces, or null: every entry carries it while set. */
    private volatile String release;

    /** @param sessionDigest the tenant's keyed digest of a session id (the policy's decisions use the same) */
    public LedgerEntries(UnaryOperator<String> sessionDigest) {
        this.sessionDigest = sessionDigest;
    }

    /** Issue 11: binds every entry from now on to {@code releaseHash} (null: the tenant has no manifest). */
    public void bindRelease(String releaseHash) {
        this.release = releaseHash;
    }

    public ObjectNode body(Event event) {
        ObjectNode o = entry(event);
        String r = release;
        if (r != null && !o.has("release")) {
            o.put("release", r); // inside the signed, hash-chained bytes: the evidence names the release it ran under
        }
        return o;
    }

    private ObjectNode entry(Event event) {
        ObjectNode o = F.objectNode();
        if (event instanceof Event.Decided d) {
            o.put("kind", "decision");
            put(o, "session", d.sessionDigest());
            o.put("stage", d.stage());
            put(o, "upstream", d.upstream());
            put(o, "tool", d.tool());
            o.put("action", d.action());
            put(o, "reason", d.reason());
            ArrayNode controls = o.putArray("controls");
            d.controls().forEach(controls::add);
            ArrayNode findings = o.putArray("findings");
            for (Event.Noted f : d.findings()) {
                ObjectNode fo = findings.addObject();
                fo.put("control", f.control());
                fo.put("action", f.action());
                fo.put("reason", f.reason());
                put(fo, "detail", f.detail());
                if (f.demoted()) {
                    fo.put("demoted", true);
                }
            }
            o.putObject("payload").put("bytes", d.payloadBytes()).put("hmac_sha256", d.payloadHmac());
        } else if (event instanceof Event.Cloaked c) {
            o.put("kind", "cloaked");
            putSession(o, c.session());
            put(o, "upstream", c.upstream());
            put(o, "method", c.method());
            counts(o.putObject("categories"), c.categories());
            if (!c.tripwire().isEmpty()) {
                counts(o.putObject("tripwire"), c.tripwire());
            }
        } else if (event instanceof Event.CrossUpstreamRestore r) {
            o.put("kind", "cross_upstream_restore");
            putSession(o, r.session());
            ArrayNode from = o.putArray("from");
            new TreeSet<>(r.from()).forEach(from::add);
            put(o, "to", r.to());
            put(o, "tool", r.tool());
            put(o, "category", r.category());
            o.put("refused", r.refused());
        } else if (event instanceof Event.RawPiiWritten r) {
            o.put("kind", "raw_pii");
            putSession(o, r.session());
            put(o, "upstream", r.upstream());
            put(o, "tool", r.tool());
            counts(o.putObject("categories"), r.categories());
        } else if (event instanceof Event.Forwarded f) {
            o.put("kind", "tool_call");
            put(o, "session", f.sessionDigest());
            put(o, "upstream", f.upstream());
            put(o, "tool", f.tool());
            o.put("policy", false);
            o.putObject("payload").put("bytes", f.argumentBytes()).put("hmac_sha256", f.argumentsHmac());
        } else if (event instanceof Event.ConfigLoaded c) {
            o.put("kind", "config_loaded");
            o.put("file", c.file());
            o.put("sha256", c.sha256());
        } else if (event instanceof Event.ConfigRemoved r) {
            o.put("kind", "config_removed");
            o.put("file", r.file());
        } else if (event instanceof Event.UpstreamTokenObtained t) {
            // issue 16: the token itself never reaches the ledger
            o.put("kind", "upstream_token_obtained");
            o.put("upstream", t.upstream());
            o.put("grant", t.grant());
            o.put("issuer", t.issuer());
            if (t.scope() != null) {
                o.put("scope", t.scope());
            }
            if (t.expiresAt() != null) {
                o.put("expires_at", t.expiresAt().toString());
            }
        } else if (event instanceof Event.SelfChecked s) {
            o.put("kind", "self_check");
            ArrayNode cats = o.putArray("categories");
            s.categories().forEach(cats::add);
            o.put("failures", s.failures());
            o.put("passed", s.failures() == 0);
        } else if (event instanceof Event.PinAccepted a) {
            o.put("kind", "pin_accepted");
            o.put("principal", a.principal());
            o.put("tool", a.tool());
            o.put("sha256", a.sha256());
        } else if (event instanceof Event.SessionEnded e) {
            o.put("kind", "session_ended");
            o.put("principal", e.principal());
            putSession(o, e.session());
        } else if (event instanceof Event.GateDecided g) {
            o.put("kind", "mcp_tool_call");
            putSession(o, g.session());
            put(o, "upstream", g.upstream());
            put(o, "tool", g.tool());
            o.put("action", g.action());
            put(o, "gate_denial", g.gateDenial());
            put(o, "gate_path", g.gatePath());
            put(o, "approval", g.approval());
            put(o, "operation_id", g.operationId());
            put(o, "release", g.release());
        } else if (event instanceof Event.OperationSettled r) {
            o.put("kind", "mcp_tool_result");
            putSession(o, r.session());
            put(o, "tool", r.tool());
            o.put("operation_id", r.operationId());
            o.put("operation_state", r.state());
            put(o, "release", r.release());
        } else if (event instanceof Event.OperationReconciled r) {
            o.put("kind", "operation_reconciled");
            put(o, "principal", r.principal());
            o.put("operation_id", r.operationId());
            o.put("operation_state", r.state());
        } else if (event instanceof Event.ApprovalReceived a) {
            o.put("kind", "approval_received");
            o.put("principal", a.principal());
            put(o, "tool", a.tool());
            put(o, "release", a.release());
            o.put("approval", a.approval());
        } else {
            throw new IllegalArgumentException("no ledger entry for " + event.getClass().getSimpleName());
        }
        return o;
    }

    private void putSession(ObjectNode o, String session) {
        if (session != null) {
            o.put("session", sessionDigest.apply(session));
        }
    }

    private static void put(ObjectNode o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    private static void counts(ObjectNode o, Map<String, Integer> counts) {
        new TreeMap<>(counts).forEach(o::put);
    }
}
