package dev.cloakgate.store;

import java.util.Locale;

/**
 * Where a side-effecting call stands. On disk, in command output, in the ledger and in refusals a state is
 * written in snake_case ({@link #wire()}): {@code in_flight}, {@code done}, {@code failed}, {@code unknown},
 * {@code not_applied}.
 */
public enum OperationState {
    /** Recorded before the call was forwarded; no answer yet. */
    IN_FLIGHT,
    /** The upstream answered with a result (not {@code isError}); the cloaked result is kept for replay. */
    DONE,
    /** The upstream answered with {@code isError} or a JSON-RPC error; the call may be tried again. */
    FAILED,
    /** The upstream or the gateway died while the call was in flight: whether it took effect is not known. */
    UNKNOWN,
    /** An operator checked the real system and found the call did not take effect; it may be tried again. */
    NOT_APPLIED;

    private final String wire = name().toLowerCase(Locale.ROOT);

    public String wire() {
        return wire;
    }

    /** The state named {@code s} in snake_case, or IllegalArgumentException naming the accepted ones. */
    public static OperationState fromWire(String s) {
        for (OperationState v : values()) {
            if (v.wire.equals(s)) {
                return v;
            }
        }
        throw new IllegalArgumentException("'" + s + "' is not an operation state; one of in_flight, done, failed, unknown, not_applied");
    }

    @Override
    public String toString() {
        return wire;
    }
}
