package dev.cloakgate.crypto;

/** A DSSE envelope that cannot be read or verified; {@code reason} is a stable snake_case code. */
public final class DsseException extends Exception {
    private final String reason;

    public DsseException(String reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
