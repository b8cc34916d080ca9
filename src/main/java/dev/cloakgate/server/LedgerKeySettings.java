package dev.cloakgate.server;

import java.nio.file.Path;
import java.util.Optional;

import dev.cloakgate.ledger.SigningKeys;

/**
 * The ledger signing-key settings as the commands that run without Quarkus read them (system property, then
 * environment variable): the same ones the gateway reads through its configuration.
 */
record LedgerKeySettings(Optional<Path> file, Optional<String> inline, boolean dev, Path dataDir) {

    static LedgerKeySettings fromEnvironment() {
        return new LedgerKeySettings(Optional.ofNullable(CheckCommand.setting(SigningKeys.FILE_PROPERTY, null)).map(Path::of),
                Optional.ofNullable(CheckCommand.setting("cloakgate.ledger.signing-key", null)),
                Boolean.parseBoolean(CheckCommand.setting(SigningKeys.DEV_PROPERTY, "false")),
                Path.of(CheckCommand.setting("cloakgate.data-dir", "data")));
    }

    /** True when only dev mode would provide the key (generated at the gateway's start). */
    boolean onlyDev() {
        return file.isEmpty() && inline.isEmpty() && dev;
    }

    /** @param allowDev whether dev mode may generate a key here */
    SigningKeys.Loaded load(boolean allowDev) {
        return SigningKeys.load(file, inline, dev && allowDev, dataDir);
    }
}
