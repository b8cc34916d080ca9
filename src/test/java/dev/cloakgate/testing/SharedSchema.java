package dev.cloakgate.testing;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;

/**
 * Issue 17 (shared stores): a fresh database of the tests' PostgreSQL ({@link TestPostgres}) with the gateway's own
 * migrations applied ({@code src/main/resources/db/migration}, by Flyway as the gateway does at start), for tests of
 * the stores without booting a gateway.
 */
public final class SharedSchema {
    private SharedSchema() {
    }

    /** A new database named after {@code purpose}, migrated. */
    public static DataSource fresh(String purpose) {
        DataSource ds = TestPostgres.server().database(purpose).dataSource();
        Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
        return ds;
    }
}
