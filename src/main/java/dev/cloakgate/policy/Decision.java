package dev.cloakgate.policy;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The engine's answer for one stage of one message: the most severe action any control asked for, with every
 * finding kept (none weighted, none dropped).
 */
public sealed interface Decision {
    List<Finding> findings();

    Action action();

    /** The stable code a refusal carries ({@code data.reason}); null when the message is let through. */
    default String reason() {
        return null;
    }

    /** Nothing fired, or only findings that ask for nothing. */
    record Allow(List<Finding> findings) implements Decision {
        @Override
        public Action action() {
            return Action.ALLOW;
        }
    }

    /** Let it through as {@code payload}: the controls' redactions applied to a copy. */
    record Redact(JsonNode payload, List<Finding> findings) implements Decision {
        @Override
        public Action action() {
            return Action.REDACT;
        }
    }

    /** Held: an irreversible call waits for a human. {@code fingerprint} is the SHA-256 of the call. */
    record RequireApproval(String fingerprint, List<Finding> findings) implements Decision {
        @Override
        public Action action() {
            return Action.REQUIRE_APPROVAL;
        }

        @Override
        public String reason() {
            return "approval_required";
        }
    }

    /** Refused; {@code reason} is the reason of the first finding that asked for a block. */
    record Block(String reason, List<Finding> findings) implements Decision {
        @Override
        public Action action() {
            return Action.BLOCK;
        }
    }

    /** Names of the controls that asked for more than allow, in order, without repeats. */
    default List<String> controls() {
        return findings().stream().filter(f -> f.action() != Action.ALLOW).map(Finding::control).distinct().toList();
    }
}
