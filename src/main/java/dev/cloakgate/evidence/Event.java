package dev.cloakgate.evidence;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cloakgate.policy.FindingDetail;

/**
 * A decision or observation worth keeping as evidence. Events carry names, categories and counts: never a
 * payload, a detected value or a hash of one. {@code session} is the session id where an event has one (the
 * ledger stores a keyed digest of it: the id itself is a bearer handle); {@code sessionDigest} is that digest
 * already taken.
 */
public sealed interface Event {

    String tenant();

    /** Values of an upstream's answer were cloaked before the agent saw them. */
    record Cloaked(String tenant, String session, String upstream, String method, Map<String, Integer> categories,
            Map<String, Integer> tripwire) implements Event {
    }

    /** A token issued for one upstream's data was restored into a call to another. */
    record CrossUpstreamRestore(String tenant, String session, Set<String> from, String to, String tool,
            String category, boolean refused) implements Event {
        public CrossUpstreamRestore {
            tool = FindingDetail.recordedTool(tool);
        }
    }

    /** The model wrote PII itself (not a token) into a call; reported, not blocked. */
    record RawPiiWritten(String tenant, String session, String upstream, String tool, Map<String, Integer> categories)
            implements Event {
        public RawPiiWritten {
            tool = FindingDetail.recordedTool(tool);
        }
    }

    /**
     * A policy decision at one stage. The payload is bound by its UTF-8 length and HMAC-SHA-256 under the
     * tenant's secret, never by itself or a plain hash.
     */
    record Decided(String tenant, String sessionDigest, String stage, String upstream, String tool, String action,
            String reason, List<String> controls, List<Noted> findings, long payloadBytes, String payloadHmac)
            implements Event {
        public Decided {
            controls = List.copyOf(controls);
            findings = List.copyOf(findings);
        }
    }

    /** One control's finding inside a decision: codes and words, never a payload value. */
    record Noted(String control, String action, String reason, String detail, boolean demoted) {
    }

    /**
     * The tenant's file was accepted, at startup or by a reload: new sessions use it from here on. {@code sha256}
     * is of the file's bytes (configuration, not data).
     */
    record ConfigLoaded(String tenant, String file, String sha256) implements Event {
    }

    /** The tenant's file was removed while the gateway ran: no new sessions from here on (existing ones go on). */
    record ConfigRemoved(String tenant, String file) implements Event {
    }

    /**
     * Issue 16: the gateway obtained a token for an upstream as an OAuth client ({@code grant}
     * {@code client_credentials}, {@code authorization_code} or {@code refresh_token}): who issued it, the granted
     * scope and its expiry (null when the server did not say). Never the token.
     */
    record UpstreamTokenObtained(String tenant, String upstream, String grant, String scope, java.time.Instant expiresAt,
            String issuer) implements Event {
    }

    /** The startup self-check pushed known values of each category through the real detection path. */
    record SelfChecked(String tenant, List<String> categories, int failures) implements Event {
        public SelfChecked {
            categories = List.copyOf(categories);
        }
    }

    /**
     * A tools/call forwarded for a tenant without a policy: nothing was checked, and the record says so. The
     * arguments are bound by length and keyed digest like a decision's payload.
     */
    record Forwarded(String tenant, String sessionDigest, String upstream, String tool, long argumentBytes,
            String argumentsHmac) implements Event {
        public Forwarded {
            tool = FindingDetail.recordedTool(tool);
        }
    }

    /**
     * An operator accepted the pending definition of a pinned tool through the admin API. {@code tool} is
     * {@code upstream/name}; a name that is not an identifier is withheld (it is the upstream's text).
     */
    record PinAccepted(String tenant, String principal, String tool, String sha256) implements Event {
        public PinAccepted {
            int slash = tool.indexOf('/');
            tool = slash < 0 ? FindingDetail.recordedTool(tool)
                    : tool.substring(0, slash + 1) + FindingDetail.recordedTool(tool.substring(slash + 1));
        }
    }

    /** An operator ended a session through the admin API. */
    record SessionEnded(String tenant, String principal, String session) implements Event {
    }

    // ---- issue 11: the action gate ----

    /**
     * The gate's decision on one tools/call ({@code mcp_tool_call}): {@code action} is {@code allow}, {@code block}
     * or {@code warn} (refused, forwarded in warn mode); {@code gateDenial} the stable reason and {@code gatePath} the
     * contract path where one applies. An approved call carries the digest of the receipt envelope and the operation
     * id; never an argument value or a plain hash of one.
     */
    record GateDecided(String tenant, String session, String upstream, String tool, String release, String action,
            String gateDenial, String gatePath, String approval, String operationId) implements Event {
        public GateDecided {
            tool = FindingDetail.recordedTool(tool);
        }
    }

    /** A side-effecting call's outcome ({@code mcp_tool_result}): done, failed, or unknown (its upstream died). */
    record OperationSettled(String tenant, String session, String tool, String release, String operationId,
            String state) implements Event {
        public OperationSettled {
            tool = FindingDetail.recordedTool(tool);
        }
    }

    /** An operator settled an operation whose outcome was unknown ({@code operation_reconciled}). */
    record OperationReconciled(String tenant, String principal, String operationId, String state) implements Event {
    }

    /** An approval receipt was uploaded through the admin API by an approver. */
    record ApprovalReceived(String tenant, String principal, String tool, String release, String approval)
            implements Event {
        public ApprovalReceived {
            tool = FindingDetail.recordedTool(tool);
        }
    }
}
