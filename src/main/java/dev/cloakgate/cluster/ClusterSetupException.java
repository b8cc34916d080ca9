package dev.cloakgate.cluster;

/**
 * A cluster setting that stops the start (and fails {@code --check}): a stable snake_case {@link #code()} and a
 * message that says what to fix. It never quotes a key file's content.
 */
public final class ClusterSetupException extends RuntimeException {
    private final String code;

    public ClusterSetupException(String code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
