package dev.cloakgate.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import dev.cloakgate.ledger.LedgerKeyring;
import dev.cloakgate.ledger.LedgerOrigin;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.ledger.LogIdentity;
import dev.cloakgate.ledger.LogKeys;
import dev.cloakgate.ledger.SigningKeys;

/**
 * The ledger key settings as the commands that run without Quarkus read them (system property, then environment
 * variable): the same ones the gateway reads through its configuration, the log identity and the previous key
 * included.
 */
record LedgerKeySettings(Optional<Path> file, Optional<String> inline, boolean dev, Path dataDir, Optional<String> logIdentity,
        Optional<Path> previousFile) {

    static LedgerKeySettings fromEnvironment() {
        return new LedgerKeySettings(Optional.ofNullable(CheckCommand.setting(SigningKeys.FILE_PROPERTY, null)).map(Path::of),
                Optional.ofNullable(CheckCommand.setting("cloakgate.ledger.signing-key", null)),
                Boolean.parseBoolean(CheckCommand.setting(SigningKeys.DEV_PROPERTY, "false")),
                Path.of(CheckCommand.setting("cloakgate.data-dir", "data")),
                Optional.ofNullable(CheckCommand.setting(LogIdentity.PROPERTY, null)),
                Optional.ofNullable(CheckCommand.setting(SigningKeys.PREVIOUS_FILE_PROPERTY, null)).map(Path::of));
    }

    /** True when only dev mode would provide the key (generated at the gateway's start). */
    boolean onlyDev() {
        return file.isEmpty() && inline.isEmpty() && dev;
    }

    /** @param allowDev whether dev mode may generate a key here */
    SigningKeys.Loaded load(boolean allowDev) {
        return SigningKeys.load(file, inline, dev && allowDev, dataDir);
    }

    /** The keyring as the gateway builds it: master key, log identity (generated once when unset), previous key. */
    LedgerKeyring keyring(SigningKeys.Loaded key) {
        return new LedgerKeyring(key.key(), SigningKeys.loadPrevious(previousFile, key.key()),
                LogIdentity.resolve(logIdentity, dataDir));
    }

    /**
     * Tenant T's log keys: under the origin stored with its ledger, or the one a ledger created now would get.
     *
     * @throws dev.cloakgate.ledger.LedgerStoreException when the identity contradicts the stored origin
     */
    LogKeys logKeys(String tenant, LedgerKeyring keyring) {
        String stored = null;
        boolean entries = false;
        if (Files.isRegularFile(dataDir.resolve("ledger").resolve(tenant + ".db"))) {
            try (LedgerStore store = LedgerStore.openReadOnly(dataDir, tenant)) {
                stored = store.storedOrigin();
                entries = store.size() > 0;
            }
        }
        return keyring.keys(LedgerOrigin.resolve(tenant, stored, entries, keyring.identity()).origin());
    }
}
