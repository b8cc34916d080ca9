package dev.cloakgate.ledger;

import dev.cloakgate.store.StoreException;

/** The ledger's storage cannot be opened or written; the message says which file and why. */
public class LedgerStoreException extends StoreException {
    public LedgerStoreException(String message) {
        super(message);
    }

    public LedgerStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
