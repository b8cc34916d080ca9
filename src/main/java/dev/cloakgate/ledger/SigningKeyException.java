package dev.cloakgate.ledger;

/**
 * The ledger signing key, the previous key or the log identity cannot be had as configured; the message says what to set or fix and never holds key
 * material.
 */
public final class SigningKeyException extends RuntimeException {
    public SigningKeyException(String message) {
        super(message);
    }

    public SigningKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
