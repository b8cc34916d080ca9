package dev.cloakgate.policy;

/**
 * One check, one class. A control answers one question about a {@link Subject} at the stages it applies to and
 * reports findings; it never decides alone what happens to the message (the engine merges: most severe wins).
 * A control that redacts edits {@link Subject#payload()} in place and reports {@link Action#REDACT}; it is only
 * ever handed a copy.
 */
public interface Control {
    /** The configuration and trace name, e.g. {@code path_sandbox}. */
    String name();

    boolean appliesTo(Stage stage);

    void inspect(Subject subject, Findings out);
}
