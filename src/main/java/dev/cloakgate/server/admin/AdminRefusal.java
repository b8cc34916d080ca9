package dev.cloakgate.server.admin;

/**
 * A refusal of an admin request: the HTTP status, a stable snake_case code (the README's error list) and a message
 * that says what to fix. Thrown by a resource, answered as {@code {"error", "message"}} by {@link AdminErrors};
 * carries no stack trace (it is an answer, not a fault).
 *
 * @param challenge the {@code WWW-Authenticate} value of a 401 or 403, or null
 */
public final class AdminRefusal extends RuntimeException {
    private final int status;
    private final String code;
    private final String challenge;

    public AdminRefusal(int status, String code, String message, String challenge) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.challenge = challenge;
    }

    public AdminRefusal(int status, String code, String message) {
        this(status, code, message, null);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String challenge() {
        return challenge;
    }
}
