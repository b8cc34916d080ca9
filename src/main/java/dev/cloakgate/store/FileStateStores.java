package dev.cloakgate.store;

import java.nio.file.Path;

/** The default: each tenant's state in files under the data dir, for one gateway process (SQLite, directories). */
public final class FileStateStores implements StateStores {
    private final Path data;

    public FileStateStores(Path data) {
        this.data = data;
    }

    @Override
    public OperationStore operations(String tenant) {
        return SqliteOperationStore.openForGateway(data, tenant);
    }

    @Override
    public ApprovalStore approvals(String tenant, Path dir) {
        return new DirectoryApprovalStore(dir);
    }

    @Override
    public dev.cloakgate.policy.PinStore pins(String tenant) {
        return new dev.cloakgate.policy.FilePinStore(data, tenant);
    }

    @Override
    public dev.cloakgate.policy.TenantSecret secret(String tenant) throws java.io.IOException {
        return dev.cloakgate.policy.TenantSecret.load(data, tenant);
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public void close() {
        // each tenant's stores are closed by their owner; nothing is held here
    }
}
