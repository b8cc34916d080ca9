package dev.cloakgate.policy;

import java.util.Locale;

/** What a control asks for, in increasing severity: the most severe asked for wins. */
public enum Action {
    ALLOW, REDACT, REQUIRE_APPROVAL, BLOCK;

    public boolean atLeast(Action other) {
        return compareTo(other) >= 0;
    }

    public static Action max(Action a, Action b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The configuration and trace spelling: {@code allow}, {@code redact}, {@code require_approval}, {@code block}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Action parse(String code) {
        for (Action a : values()) {
            if (a.code().equals(code)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown action \"" + code + "\" (allow, redact, require_approval, block)");
    }
}
