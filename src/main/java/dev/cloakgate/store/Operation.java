package dev.cloakgate.store;

import java.time.Instant;
import java.util.regex.Pattern;

/**
 * One stored operation, as {@code operations list} shows it. Holds what identifies the call and its history,
 * never an argument value or a hash of one; the stored result itself is only read back by a replay.
 *
 * @param id           the operation id (from the approval receipt, or derived from task id and fingerprint)
 * @param tool         the tool's exposed name
 * @param upstream     the upstream the call went to
 * @param session      the session's log tag (a keyed digest, not the session id), or null
 * @param attempts     how many times the call was forwarded
 * @param approval     the digest of the approval receipt envelope that allowed the last attempt, or null
 * @param taskId       the trusted task context's task id, or null
 * @param reconciledBy the operator who set the current state by hand, or null
 * @param reconciledAt when, or null
 * @param resultStored a {@code done} operation whose cloaked result is kept, so a retry replays it
 */
public record Operation(String id, String tool, String upstream, String session, OperationState state, int attempts,
        Instant createdAt, Instant updatedAt, String approval, String taskId, String reconciledBy, Instant reconciledAt,
        boolean resultStored) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    /**
     * Whether {@code id} can name an operation: 1-128 of {@code [A-Za-z0-9._:-]}, starting alphanumeric (a UUID,
     * {@code op-<hex>}). An operation id an approver wrote into a receipt is checked with this before use; the
     * stores refuse any other.
     */
    public static boolean validId(String id) {
        return id != null && ID.matcher(id).matches();
    }
}
