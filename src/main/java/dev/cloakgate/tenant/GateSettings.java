package dev.cloakgate.tenant;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The tenant file's {@code gate} block (issue 11) as written: files, keys and limits. The documents it names are
 * read, verified and bound to each other when the tenant is assembled ({@code gate.TenantGate}), so a manifest
 * that does not read or a contract the release does not bind refuses the tenant, naming the key.
 *
 * @param certification null: every call is refused {@code no_certification} (a release nobody certified)
 * @param approvalsDir null: {@code {data-dir}/approvals/{tenant}}
 * @param approvalWait zero: a call that needs an approval is refused at once ({@code approval_required})
 */
public record GateSettings(Path manifest, Path certification, List<String> trustKeys, List<String> revokedStatements,
        List<String> revokedKeys, String environment, Mode mode, List<Path> contracts, List<String> orchestratorKeys,
        List<String> approverKeys, Path approvalsDir, Duration approvalWait, Duration clockSkew) {

    public enum Mode {
        /** A refused call never reaches the upstream. */
        ENFORCE,
        /** A refused call is forwarded and the violation recorded: for rolling a release out, never for production. */
        WARN
    }

    public GateSettings {
        trustKeys = List.copyOf(trustKeys);
        revokedStatements = List.copyOf(revokedStatements);
        revokedKeys = List.copyOf(revokedKeys);
        contracts = List.copyOf(contracts);
        orchestratorKeys = List.copyOf(orchestratorKeys);
        approverKeys = List.copyOf(approverKeys);
    }
}
