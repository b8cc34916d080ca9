package dev.cloakgate.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import javax.sql.DataSource;

import dev.cloakgate.ledger.LedgerKeyring;
import dev.cloakgate.ledger.LedgerOrigin;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.ledger.LedgerStoreException;
import dev.cloakgate.ledger.PostgresLedgerStore;
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
        Optional<DataSource> shared = sharedFromEnvironment();
        if (shared.isPresent() || Files.isRegularFile(dataDir.resolve("ledger").resolve(tenant + ".db"))) {
            try (LedgerStore store = openReader(tenant)) {
                stored = store.storedOrigin();
                entries = store.size() > 0;
            } catch (LedgerStoreException noLedgerYet) {
                if (shared.isEmpty()) {
                    throw noLedgerYet;
                }
            }
        }
        return keyring.keys(LedgerOrigin.resolve(tenant, stored, entries, keyring.identity()).origin());
    }

    // ---- issue 17, pg-ledger: with cloakgate.store=postgresql the commands read the log the replicas share ----
    /**
     * The tenant's ledger for reading: the SQLite file under the data dir, or with {@code cloakgate.store=postgresql}
     * the shared database of the same {@code quarkus.datasource.*} settings the gateway uses.
     *
     * @throws LedgerStoreException when there is no such ledger
     */
    LedgerStore openReader(String tenant) {
        Optional<DataSource> shared = sharedFromEnvironment();
        return shared.isPresent() ? PostgresLedgerStore.openReadOnly(shared.get(), tenant) : LedgerStore.openReadOnly(dataDir, tenant);
    }

    /**
     * The shared database as the gateway's datasource settings name it (system property, then environment variable),
     * or empty with {@code cloakgate.store=sqlite}.
     *
     * @throws LedgerStoreException ({@code store_invalid}, {@code store_postgresql_url_missing}) as the gateway refuses
     */
    static Optional<DataSource> sharedFromEnvironment() {
        SharedDatabase.Kind kind;
        try {
            kind = SharedDatabase.kind(CheckCommand.setting("cloakgate.store", "sqlite"));
        } catch (IllegalArgumentException e) {
            throw new LedgerStoreException(e.getMessage());
        }
        if (kind != SharedDatabase.Kind.POSTGRESQL) {
            return Optional.empty();
        }
        String url = CheckCommand.setting("quarkus.datasource.jdbc.url", null);
        if (url == null) {
            throw new LedgerStoreException("store_postgresql_url_missing: cloakgate.store=postgresql needs the database:"
                    + " set quarkus.datasource.jdbc.url, quarkus.datasource.username and quarkus.datasource.password"
                    + " (env QUARKUS_DATASOURCE_JDBC_URL, ..._USERNAME, ..._PASSWORD) as for the gateway");
        }
        org.postgresql.ds.PGSimpleDataSource ds = new org.postgresql.ds.PGSimpleDataSource();
        ds.setURL(url);
        ds.setUser(CheckCommand.setting("quarkus.datasource.username", null));
        ds.setPassword(CheckCommand.setting("quarkus.datasource.password", null));
        return Optional.of(ds);
    }
    // ---- end issue 17, pg-ledger ----
}
