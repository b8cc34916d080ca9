package dev.cloakgate.gate;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;

/**
 * Issuing approval receipts (seed "Signed approval receipts"): a DSSE envelope ({@code application/vnd.in-toto+json})
 * holding an in-toto Statement v1 of {@link #PREDICATE_TYPE} whose subject is the call's fingerprint
 * ({@code {name: "tool-call", digest: {sha256: <fingerprint>}}}) and whose predicate is {@code {release, tool, taskId,
 * operationId, approver, approvedAt, notAfter}}. The gate finds it as {@code <fingerprint>.approval.json}.
 */
public final class Approvals {
    public static final String PREDICATE_TYPE = "https://cloakpipe.co/attestations/approval/v1alpha1";
    public static final String SUBJECT_NAME = "tool-call";
    public static final String FILE_SUFFIX = ".approval.json";

    private Approvals() {
    }

    /** {@code <fingerprint>.approval.json}. */
    public static String fileName(String fingerprintHex) {
        return fingerprintHex + FILE_SUFFIX;
    }

    /** A fresh operation id (UUID v4), the default when the approver names none. */
    public static String newOperationId() {
        return UUID.randomUUID().toString();
    }

    /**
     * Signs a receipt for one call.
     *
     * @param release the release hash, {@code sha256:<hex>}
     * @param taskIdOrNull the task the call belongs to; null approves it for a session without a task context only
     * @param operationIdOrNull null for a fresh UUID v4
     * @param approver who approved, as it should appear to an auditor (the command uses the key id)
     */
    public static Dsse.Envelope issue(String release, String tool, String fingerprintHex, String taskIdOrNull,
            String operationIdOrNull, String approver, Instant approvedAt, Duration validity, Ed25519SigningKey key) {
        if (!fingerprintHex.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a fingerprint is 64 lower-case hex digits");
        }
        String operationId = operationIdOrNull == null ? newOperationId() : operationIdOrNull;
        if (!OperationIds.valid(operationId)) {
            throw new IllegalArgumentException("an operation id is 1 to 128 of A-Z a-z 0-9 . _ : - (starting with a letter or digit)");
        }
        Instant at = approvedAt.truncatedTo(ChronoUnit.SECONDS);
        ObjectNode p = JsonNodeFactory.instance.objectNode();
        p.put("release", release);
        p.put("tool", tool);
        if (taskIdOrNull == null) {
            p.putNull("taskId");
        } else {
            p.put("taskId", taskIdOrNull);
        }
        p.put("operationId", operationId);
        p.put("approver", approver);
        p.put("approvedAt", at.toString());
        p.put("notAfter", at.plus(validity).toString());
        byte[] statement = new InTotoStatement(SUBJECT_NAME, fingerprintHex, PREDICATE_TYPE, p).toJson();
        return Dsse.sign(InTotoStatement.PAYLOAD_TYPE, statement, SignerKeys.keyId(key.publicKey()), key);
    }
}
