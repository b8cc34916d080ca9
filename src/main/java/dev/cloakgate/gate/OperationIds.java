package dev.cloakgate.gate;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Operation ids (seed "Operation identity and outcomes"). Without a receipt naming one, a side-effecting call's id is
 * {@code op-} and the first 32 hex digits of SHA-256 over {@code cloakpipe.co/operation/v1}, a newline, the task id,
 * a newline and the fingerprint hex: raw bytes joined by newlines, not JCS of a value. The model never supplies it:
 * the same call in the same task is the same operation, so a retry finds the first attempt's outcome.
 */
public final class OperationIds {
    /** What a receipt or an operator may name as an operation id: safe in a log line, a file and a SQL parameter. */
    public static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    private OperationIds() {
    }

    public static String derive(String taskId, String fingerprintHex) {
        byte[] tail = (taskId + "\n" + fingerprintHex).getBytes(StandardCharsets.UTF_8);
        return "op-" + Domains.hash(Domains.OPERATION, tail).substring(0, 32);
    }

    public static boolean valid(String operationId) {
        return operationId != null && VALID.matcher(operationId).matches();
    }
}
