package dev.cloakgate.gate;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.crypto.SignerKeys;

/**
 * The action boundary of one tenant (seed "Action boundary"): may this exact call run, decided only from trusted
 * inputs (the certified contracts, the orchestrator's signed task context, an approver's signed receipt). In order:
 * the task context must still be valid; the tool's contract rule (if any) must hold; a side-effecting tool needs a
 * task context (its operation id is derived from the task); an approval, demanded by the contract's
 * {@code requiresApproval} or by the policy ({@code destructive_action}), needs a valid receipt for this call's
 * fingerprint. There is one approval concept: either demand is satisfied by the same receipt.
 *
 * <p>A tool no contract declares keeps the release gate's behaviour (it passes here) unless the policy demands an
 * approval. The fingerprint is computed only when a rule or an approval applies to the call.
 */
public final class ActionBoundary {
    private final ContractSet contracts;
    private final SignerKeys approvers;
    private final Duration skew;
    private final Clock clock;
    private final ReceiptLookup receipts;
    private final ApprovalVerifier verifier = new ApprovalVerifier();

    public ActionBoundary(ContractSet contracts, SignerKeys approvers, Duration skew, Clock clock, ReceiptLookup receipts) {
        this.contracts = contracts;
        this.approvers = approvers;
        this.skew = skew;
        this.clock = clock;
        this.receipts = receipts;
    }

    /** What the boundary decided about one call. */
    public sealed interface Outcome permits Pass, Deny, Held {
    }

    /**
     * The call may run.
     *
     * @param rule the contract rule that applied, or null (no contract declares the tool)
     * @param fingerprint the call's fingerprint, or null when neither a rule nor an approval applied
     * @param approval the receipt that approved it, or null
     * @param operationId the operation to track (from the receipt, else derived for a side-effecting tool), or null
     */
    public record Pass(ToolRule rule, String fingerprint, ApprovalVerifier.Approved approval, String operationId)
            implements Outcome {
    }

    /** Refused: {@code reason} a stable code, {@code gatePath} the contract rule that refused it or null. */
    public record Deny(String reason, String gatePath) implements Outcome {
    }

    /** Needs an approval and no receipt for {@code fingerprint} exists yet: {@code approval_required}. */
    public record Held(String fingerprint) implements Outcome {
        public String reason() {
            return "approval_required";
        }
    }

    public ContractSet contracts() {
        return contracts;
    }

    /**
     * @param releaseHash the release hash, {@code sha256:<hex>}
     * @param context the session's verified task context, or null when it has none
     * @param approvalDemandedByPolicy the policy's request stage asked for an approval ({@code destructive_action})
     */
    public Outcome check(String releaseHash, String tool, JsonNode arguments, TaskContext context,
            boolean approvalDemandedByPolicy) {
        if (context != null && context.expiredAt(clock.instant(), skew)) {
            return new Deny("task_context_expired", null);
        }
        ToolRule rule = contracts.rule(tool);
        if (rule == null && !approvalDemandedByPolicy) {
            return new Pass(null, null, null, null);
        }
        if (rule != null) {
            Violation v = rule.check(arguments, context);
            if (v != null) {
                return new Deny(v.reason(), v.gatePath());
            }
            if (rule.sideEffect() && context == null) {
                // the operation id is derived from the task: without one, a retry could not be recognised
                return new Deny("task_context_missing", "spec.tools." + tool + ".sideEffect");
            }
        }
        String fingerprint = CallFingerprint.of(releaseHash, tool, arguments);
        ApprovalVerifier.Approved approved = null;
        if (approvalDemandedByPolicy || rule.requiresApproval()) {
            Optional<byte[]> receipt;
            try {
                receipt = receipts.find(fingerprint);
            } catch (UncheckedIOException unreadable) {
                return new Deny("approval_unreadable", null);
            }
            if (receipt.isEmpty()) {
                return new Held(fingerprint);
            }
            ApprovalVerifier.Outcome o = verifier.verify(receipt.get(), fingerprint, releaseHash, tool,
                    context == null ? null : context.taskId(), approvers, clock.instant(), skew);
            if (o instanceof ApprovalVerifier.Refused refused) {
                return new Deny(refused.reason(), null);
            }
            approved = (ApprovalVerifier.Approved) o;
        }
        String operationId = approved != null ? approved.operationId()
                : rule != null && rule.sideEffect() ? OperationIds.derive(context.taskId(), fingerprint) : null;
        return new Pass(rule, fingerprint, approved, operationId);
    }
}
