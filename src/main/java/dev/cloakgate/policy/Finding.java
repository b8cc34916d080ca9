package dev.cloakgate.policy;

/**
 * One control's finding. {@code reason} is a stable snake_case code; {@code detail} says what to look at in
 * words and names (an argument's JSON pointer, a host's category), never a value from the payload: findings go
 * to the decision trace, the signed ledger and the client's error. Pointers name keys as {@link FindingDetail}
 * writes them.
 *
 * @param demoted the control saw the shape but judged it quoted rather than meant; kept for the record, its
 *        action already lowered
 */
public record Finding(String control, Action action, String reason, String detail, boolean demoted) {
    /** Every detail passes {@link FindingDetail#scrub}, whoever wrote it: a finding is written down for good. */
    public Finding {
        detail = FindingDetail.scrub(detail);
    }

    public Finding(String control, Action action, String reason, String detail) {
        this(control, action, reason, detail, false);
    }
}
