package dev.cloakgate.store;

import java.nio.file.Path;

/** Another gateway (another process, or another store in this one) holds a tenant's store. */
public final class StoreLockedException extends StoreException {
    private final Path lockFile;
    private final String holder;

    public StoreLockedException(Path lockFile, String holder, String what) {
        super(lockFile + " is locked: another gateway holds this " + what + (holder.isEmpty() ? "" : " (" + holder + ")")
                + "; only one gateway may use a tenant's " + what + ", so stop it or give this one another cloakgate.data-dir");
        this.lockFile = lockFile;
        this.holder = holder;
    }

    public Path lockFile() {
        return lockFile;
    }

    /** What the lock file says about its holder ({@code pid N}), empty when it says nothing. */
    public String holder() {
        return holder;
    }
}
