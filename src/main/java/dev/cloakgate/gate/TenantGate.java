package dev.cloakgate.gate;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.store.ApprovalStore;
import dev.cloakgate.store.OperationStore;
import dev.cloakgate.tenant.GateSettings;
import dev.cloakgate.tenant.TenantConfigException;

/**
 * One tenant's action gate, built from its {@code gate} block at every accepted version of the tenant file: the
 * release (manifest, its certification as the file says now, the verifier), the contracts it binds, the keys of
 * orchestrators and approvers, and the tenant's stores. Every document is read and bound here, so a manifest that
 * does not read or a contract the release does not bind refuses the tenant file, naming the key; a missing
 * certification does not (it refuses every call instead: {@code no_certification}).
 *
 * <p>The stores outlive a reload (the gateway holds the operations store's lock for its life); the executor is where
 * their blocking work runs, never an event loop.
 */
public final class TenantGate {
    private final GateSettings settings;
    private final ReleaseManifest manifest;
    private final CertificationFile certification;
    private final CertificationVerifier verifier;
    private final ActionBoundary boundary;
    private final SignerKeys orchestrators;
    private final SignerKeys approvers;
    private final OperationStore operations;
    private final ApprovalStore approvals;
    private final ExecutorService worker;
    private final Clock clock;
    /** The release gate over the certification bytes last read (their array identifies the read). */
    private volatile ReleaseGate releaseGate;
    private final Evidence evidence;
    private final String tenant;

    private TenantGate(GateSettings settings, ReleaseManifest manifest, CertificationFile certification,
            CertificationVerifier verifier, ActionBoundary boundary, SignerKeys orchestrators, SignerKeys approvers,
            OperationStore operations, ApprovalStore approvals, ExecutorService worker, Clock clock, Evidence evidence,
            String tenant) {
        this.evidence = evidence;
        this.tenant = tenant;
        this.settings = settings;
        this.manifest = manifest;
        this.certification = certification;
        this.verifier = verifier;
        this.boundary = boundary;
        this.orchestrators = orchestrators;
        this.approvers = approvers;
        this.operations = operations;
        this.approvals = approvals;
        this.worker = worker;
        this.clock = clock;
    }

    /**
     * Reads and binds the documents {@code s} names. {@code operations} and {@code approvals} may be null only to check
     * a tenant file without serving ({@code --check}): no receipt is then found.
     *
     * @param file the tenant file, as refusals name it
     * @throws TenantConfigException naming the {@code $.gate} key whose document is wrong, and what to fix
     */
    public static TenantGate load(String tenant, GateSettings s, String file, Clock clock, OperationStore operations,
            ApprovalStore approvals, ExecutorService worker, Evidence evidence) throws TenantConfigException {
        ReleaseManifest manifest;
        try {
            manifest = ReleaseManifest.read(s.manifest());
        } catch (IOException e) {
            throw new TenantConfigException(file, "$.gate.manifest", "cannot read the release manifest " + s.manifest()
                    + " (" + e.getClass().getSimpleName() + ")");
        } catch (IllegalArgumentException e) {
            throw new TenantConfigException(file, "$.gate.manifest", e.getMessage());
        }
        SignerKeys trust = keys(s.trustKeys(), file, "$.gate.trust_keys");
        SignerKeys orchestrators = keys(s.orchestratorKeys(), file, "$.gate.orchestrator_keys");
        SignerKeys approvers = keys(s.approverKeys(), file, "$.gate.approver_keys");
        CertificationVerifier verifier;
        try {
            verifier = new CertificationVerifier(trust, new HashSet<>(s.revokedStatements()), new HashSet<>(s.revokedKeys()),
                    s.environment(), s.clockSkew(), clock);
        } catch (IllegalArgumentException e) {
            throw new TenantConfigException(file, "$.gate", e.getMessage());
        }
        CertificationFile cert = null;
        if (s.certification() != null) {
            try {
                cert = new CertificationFile(s.certification(), System::nanoTime);
            } catch (IOException e) {
                throw new TenantConfigException(file, "$.gate.certification", "cannot read the certification "
                        + s.certification() + " (" + e.getClass().getSimpleName() + ")");
            }
        }
        List<ToolContract> contracts = new ArrayList<>();
        for (int i = 0; i < s.contracts().size(); i++) {
            Path p = s.contracts().get(i);
            String at = "$.gate.contracts[" + i + "]";
            try {
                contracts.add(ToolContract.parse(GateDocuments.readFile(p), "tool contract " + p));
            } catch (IOException e) {
                throw new TenantConfigException(file, at, "cannot read the tool contract " + p + " ("
                        + e.getClass().getSimpleName() + ")");
            } catch (IllegalArgumentException e) {
                throw new TenantConfigException(file, at, e.getMessage());
            }
        }
        ContractSet bound;
        try {
            bound = ContractSet.bind(manifest.policies().stream().map(ReleaseManifest.PolicyRef::ref).toList(), contracts);
        } catch (IllegalArgumentException e) {
            throw new TenantConfigException(file, "$.gate.contracts", e.getMessage());
        }
        if (bound.hasSideEffects() && orchestrators.isEmpty()) {
            // a side-effecting tool's operation is named after its task: without a way to trust one, none could run
            throw new TenantConfigException(file, "$.gate.orchestrator_keys", "a contract declares a sideEffect tool, whose"
                    + " operations are named after the task: give the KEYID=HEX of the orchestrators that sign task contexts");
        }
        ReceiptLookup receipts = approvals == null ? fp -> Optional.empty() : approvals::find;
        ActionBoundary boundary = new ActionBoundary(bound, approvers, s.clockSkew(), clock, receipts);
        return new TenantGate(s, manifest, cert, verifier, boundary, orchestrators, approvers, operations, approvals,
                worker, clock, evidence, tenant);
    }

    private static SignerKeys keys(List<String> specs, String file, String path) throws TenantConfigException {
        try {
            return SignerKeys.parse(specs);
        } catch (IllegalArgumentException e) {
            throw new TenantConfigException(file, path, e.getMessage());
        }
    }

    /** The release gate's answer for {@code exposedTool} now: the certification is verified at every call. */
    public ReleaseGate.Decision release(String exposedTool) {
        byte[] bytes = certification == null ? null : certification.bytes();
        ReleaseGate g = releaseGate;
        if (g == null || g.bytesFrom() != bytes) {
            // a gate per certification read, not per call: the file's bytes are the same array until it changes
            g = new ReleaseGate(manifest, bytes, verifier, settings.mode(), bytes);
            releaseGate = g;
        }
        return g.check(exposedTool);
    }

    /**
     * Every upstream the release binds ({@code spec.mcpServers}) must be one of the tenant's: an identity for a server
     * the tenant does not have is a mistake in the release or the file.
     */
    public void checkUpstreams(java.util.Set<String> upstreams, String file) throws TenantConfigException {
        for (String bound : manifest.mcpServers().keySet()) {
            if (!upstreams.contains(bound)) {
                throw new TenantConfigException(file, "$.gate.manifest", "the release binds upstream '" + bound
                        + "' (spec.mcpServers) but the tenant has no upstream of that name (" + String.join(", ", upstreams) + ")");
            }
        }
    }

    /** The evidence of one session's gate decisions and operations. */
    public GateRecord record(String sessionId) {
        return new GateRecord(evidence, tenant, sessionId);
    }

    public String tenant() {
        return tenant;
    }

    /** The certification's state now, for start-up, {@code --check} and status: {@code valid until T} or the reason. */
    public String certificationState() {
        CertificationVerifier.Outcome o = verifier.verify(certification == null ? null : certification.bytes(),
                manifest.releaseHash());
        return o instanceof CertificationVerifier.Certified c ? "valid until " + c.notAfter()
                : ((CertificationVerifier.Refused) o).reason();
    }

    public String releaseHash() {
        return manifest.releaseHash();
    }

    public ReleaseManifest manifest() {
        return manifest;
    }

    public ActionBoundary boundary() {
        return boundary;
    }

    /** A task context presented at initialize (the header's value) or by an operator, verified now. */
    public TaskContexts.Outcome taskContext(String headerValue) {
        return TaskContexts.verifyHeader(headerValue, orchestrators, clock.instant(), settings.clockSkew());
    }

    /** A task context an operator hands in (the envelope's JSON bytes), verified now as the header's would be. */
    public TaskContexts.Outcome taskContext(byte[] envelope) {
        return TaskContexts.verify(envelope, orchestrators, clock.instant(), settings.clockSkew());
    }

    /**
     * An approval receipt an approver hands in (the admin API), checked before it is stored: signed by one of the
     * tenant's approver keys, about this release, inside its window. Its subject is the fingerprint it is stored under.
     */
    public ApprovalVerifier.Handed receipt(byte[] envelope) {
        return ApprovalVerifier.handedIn(envelope, manifest.releaseHash(), approvers, clock.instant(), settings.clockSkew());
    }

    public boolean warnOnly() {
        return settings.mode() == GateSettings.Mode.WARN;
    }

    public Duration approvalWait() {
        return settings.approvalWait();
    }

    public OperationStore operations() {
        return operations;
    }

    public ApprovalStore approvals() {
        return approvals;
    }

    /** Where the stores' blocking work runs. */
    public ExecutorService worker() {
        return worker;
    }

    public Clock clock() {
        return clock;
    }

    public GateSettings settings() {
        return settings;
    }
}
