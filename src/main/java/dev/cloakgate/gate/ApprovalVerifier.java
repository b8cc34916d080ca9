package dev.cloakgate.gate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Ed25519PublicKey;
import dev.cloakgate.crypto.SignerKeys;

/**
 * Checks an approval receipt against the call it is presented for (seed "Signed approval receipts"): signed by a
 * trusted approver key, {@code notAfter} not passed and {@code approvedAt} not in the future (each widened by the
 * clock skew), and its release, tool, subject and task id equal to the gate's. Any change to the arguments gives
 * another fingerprint, so no receipt is found for it; one that is presented anyway is {@code approval_mismatch}.
 *
 * <p>The signature and parse of identical receipt bytes are remembered (keyed by their SHA-256, with the key that
 * verified them, at most {@link #MEMO_ENTRIES}): a held call's receipt is read on every call that retries it, and an
 * Ed25519 verification costs more than the rest of the gate check. Everything that depends on the call or the clock
 * is checked every time; a memo entry is used only while its key is still among the approvers given.
 */
public final class ApprovalVerifier {
    static final int MEMO_ENTRIES = 1024;
    private static final Set<String> PREDICATE = Set.of("release", "tool", "taskId", "operationId", "approver",
            "approvedAt", "notAfter");

    /** What checking a receipt gave. */
    public sealed interface Outcome permits Approved, Refused {
    }

    /**
     * @param envelopeDigest {@code sha256:<hex>} of the receipt bytes as found, for the ledger
     * @param approverKeyId the key that signed it
     */
    public record Approved(String operationId, String envelopeDigest, String approverKeyId) implements Outcome {
    }

    /** {@code approval_unreadable}, {@code approval_untrusted}, {@code approval_expired} or {@code approval_mismatch}. */
    public record Refused(String reason, String detail) implements Outcome, Handed {
    }

    /** What checking a receipt handed in before any call asks for it gave ({@link #handedIn}). */
    public sealed interface Handed permits Receipt, Refused {
    }

    /**
     * A receipt an approver handed in, signed by an approver key, about the gate's release and not expired: it is
     * stored under {@code fingerprint}, its subject. Whether it approves a call is decided when the call comes.
     *
     * @param taskId the task it approves the call for, or null (a call outside any task)
     */
    public record Receipt(String fingerprint, String release, String tool, String taskId, String operationId,
            Instant notAfter, String envelopeDigest, String approverKeyId) implements Handed {
    }

    /** A receipt whose signature verified, as read: nothing here depends on the call or the clock. */
    private record Read(String keyId, Ed25519PublicKey key, String fingerprint, String release, String tool,
            String taskId, String operationId, Instant approvedAt, Instant notAfter) {
    }

    private final Map<String, Read> memo = new ConcurrentHashMap<>();

    public Outcome verify(byte[] receipt, String expectedFingerprint, String release, String tool, String taskIdOrNull,
            SignerKeys approvers, Instant now, Duration skew) {
        String digest = TaskContexts.sha256(receipt);
        Read r = memo.get(digest);
        if (r == null || !r.key().equals(approvers.asMap().get(r.keyId()))) {
            Object read = read(receipt, approvers);
            if (read instanceof Refused refused) {
                return refused;
            }
            r = (Read) read;
            if (memo.size() >= MEMO_ENTRIES) {
                memo.clear(); // receipts are per call: a full memo is old receipts, and a miss costs one verification
            }
            memo.put(digest, r);
        }
        if (!r.fingerprint().equals(expectedFingerprint)) {
            return new Refused("approval_mismatch", "the receipt approves another call (its subject is not this fingerprint)");
        }
        if (!r.release().equals(release)) {
            return new Refused("approval_mismatch", "the receipt is for release " + r.release() + ", not " + release);
        }
        if (!r.tool().equals(tool)) {
            return new Refused("approval_mismatch", "the receipt is for another tool");
        }
        if (!Objects.equals(r.taskId(), taskIdOrNull)) {
            return new Refused("approval_mismatch", r.taskId() == null ? "the receipt is for a call outside any task"
                    : taskIdOrNull == null ? "the receipt is for a task and the session has no task context"
                    : "the receipt is for another task");
        }
        Refused expired = expired(r, now, skew);
        if (expired != null) {
            return expired;
        }
        return new Approved(r.operationId(), "sha256:" + digest, r.keyId());
    }

    /**
     * Checks a receipt handed in by an approver (the admin API) before a call asks for it: signed by one of
     * {@code approvers}, readable, about {@code release} ({@code approval_mismatch} otherwise: it could never approve a
     * call of this release) and inside its window. The call's own parts (subject, tool, task) are checked when it
     * comes, by {@link #verify}.
     */
    public static Handed handedIn(byte[] receipt, String release, SignerKeys approvers, Instant now, Duration skew) {
        Object read = read(receipt, approvers);
        if (read instanceof Refused refused) {
            return refused;
        }
        Read r = (Read) read;
        if (!r.release().equals(release)) {
            return new Refused("approval_mismatch", "the receipt is for release " + r.release() + ", not " + release
                    + " (the release this tenant serves)");
        }
        Refused expired = expired(r, now, skew);
        if (expired != null) {
            return expired;
        }
        return new Receipt(r.fingerprint(), r.release(), r.tool(), r.taskId(), r.operationId(), r.notAfter(),
                "sha256:" + TaskContexts.sha256(receipt), r.keyId());
    }

    private static Refused expired(Read r, Instant now, Duration skew) {
        if (now.isAfter(r.notAfter().plus(skew))) {
            return new Refused("approval_expired", "the receipt expired at " + r.notAfter());
        }
        if (r.approvedAt().isAfter(now.plus(skew))) {
            return new Refused("approval_expired", "the receipt is approved in the future (" + r.approvedAt()
                    + "), beyond the clock skew allowance");
        }
        return null;
    }

    /** The signature first: nothing in the payload is believed before it verifies. */
    private static Object read(byte[] receipt, SignerKeys approvers) {
        SignedStatement signed;
        try {
            signed = SignedStatement.open(receipt, approvers, Approvals.PREDICATE_TYPE, "approval");
        } catch (SignedStatement.NotAccepted refused) {
            return new Refused(refused.reason(), refused.getMessage());
        }
        String keyId = signed.keyId();
        InTotoStatement s = signed.statement();
        try {
            if (!Approvals.SUBJECT_NAME.equals(s.subjectName())) {
                throw new IllegalArgumentException("the subject must be named " + Approvals.SUBJECT_NAME);
            }
            ObjectNode p = s.predicate();
            PredicateFields.only(p, PREDICATE);
            PredicateFields.text(p, "approver");
            String operationId = PredicateFields.text(p, "operationId");
            if (!OperationIds.valid(operationId)) {
                throw new IllegalArgumentException("operationId must match " + OperationIds.VALID.pattern());
            }
            return new Read(keyId, approvers.asMap().get(keyId), s.subjectSha256(), PredicateFields.text(p, "release"),
                    PredicateFields.text(p, "tool"), PredicateFields.textOrNull(p, "taskId"), operationId,
                    PredicateFields.instant(p, "approvedAt"), PredicateFields.instant(p, "notAfter"));
        } catch (IllegalArgumentException bad) {
            return new Refused("approval_unreadable", bad.getMessage());
        }
    }
}
