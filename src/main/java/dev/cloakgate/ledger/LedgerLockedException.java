package dev.cloakgate.ledger;

import java.nio.file.Path;

/** Another gateway (another process, or another store in this one) holds a tenant's ledger. */
public final class LedgerLockedException extends LedgerStoreException {
    private final Path lockFile;

    public LedgerLockedException(Path lockFile, String holder) {
        super(lockFile + " is locked: another gateway holds this ledger" + (holder.isEmpty() ? "" : " (" + holder + ")")
                + "; only one gateway may write a tenant's ledger, so stop it or give this one another cloakgate.data-dir");
        this.lockFile = lockFile;
    }

    public Path lockFile() {
        return lockFile;
    }
}
