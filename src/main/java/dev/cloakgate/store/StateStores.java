package dev.cloakgate.store;

import java.nio.file.Path;

/**
 * Where a tenant's lasting state is kept, chosen once per process by {@code cloakgate.store}: {@link FileStateStores}
 * (files under the data dir: one gateway process) or {@link PostgresStateStores} (issue 17: the database the replicas
 * share). The gateway asks it for each tenant's stores; nothing else names an implementation.
 */
public interface StateStores extends AutoCloseable {
    /** The tenant's operations store for this gateway process, what a previous process left in flight swept. */
    OperationStore operations(String tenant);

    /**
     * The tenant's approval receipts. {@code dir} is the directory its gate block names (or the default): where the
     * files are kept in the SQLite mode; the shared database keeps every receipt itself.
     */
    ApprovalStore approvals(String tenant, Path dir);

    /** The tenant's tool pins and their quarantine. */
    dev.cloakgate.policy.PinStore pins(String tenant);

    /**
     * The tenant's secret for keyed digests: the same object for the life of the process, and (shared) the same
     * secret on every replica.
     */
    dev.cloakgate.policy.TenantSecret secret(String tenant) throws java.io.IOException;

    /** Whether the replicas share this state (so a tenant's {@code approvals_dir} is not read). */
    boolean shared();

    @Override
    void close();
}
