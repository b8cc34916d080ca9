package dev.cloakgate.store;

import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;

import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: approval receipts in a real PostgreSQL: the {@link ApprovalStoreContract}, where "another writer" is another
 * replica's store on the same database (a fresh migrated one per test).
 */
class PostgresApprovalStoreTest extends ApprovalStoreContract {
    DataSource db;

    @BeforeEach
    void database() {
        db = TestPostgres.server().database("approvals").migrated().dataSource();
    }

    @Override
    PolledApprovalStore open(String tenant) {
        return new PostgresApprovalStore(db, tenant);
    }

    @Override
    Duration poll() {
        return PostgresApprovalStore.POLL;
    }
}
