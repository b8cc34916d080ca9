package dev.cloakgate.store;

/** Durable state cannot be opened, read or written; the message says which file and why. */
public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
