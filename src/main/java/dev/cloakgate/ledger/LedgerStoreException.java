package dev.cloakgate.ledger;

/** The ledger's storage cannot be opened or written; the message says which file and why. */
public class LedgerStoreException extends RuntimeException {
    public LedgerStoreException(String message) {
        super(message);
    }

    public LedgerStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
