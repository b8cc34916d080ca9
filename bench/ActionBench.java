import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.gate.ActionBoundary;
import dev.cloakgate.gate.ApprovalVerifier;
import dev.cloakgate.gate.Approvals;
import dev.cloakgate.gate.CallFingerprint;
import dev.cloakgate.gate.CertificationIssuer;
import dev.cloakgate.gate.ContractSet;
import dev.cloakgate.gate.ReleaseGate;
import dev.cloakgate.gate.ReleaseManifest;
import dev.cloakgate.gate.TaskContext;
import dev.cloakgate.gate.TaskContexts;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.gate.ToolContract;
import dev.cloakgate.store.DirectoryApprovalStore;
import dev.cloakgate.tenant.GateSettings;

/**
 * The action boundary alone, on one core (issue 11): what {@code ActionBoundary.check} costs per call for the seed's
 * crm contract (bindTo, enum, maxLength, closed objects) with an approval receipt found and verified, next to its
 * parts: the contract check alone, the fingerprint alone, a receipt verified cold (new verifier: one Ed25519
 * verification and a parse) and a task context verified (done once per session, at initialize); then the gate's whole
 * per-call work as the gateway builds it from files (release gate with the certification verified, boundary, receipt
 * read from the approvals directory: {@code gate-per-call-*}). Prints one JSON line per case: per-call latency
 * percentiles in nanoseconds after warm-up.
 *
 *   bash bench/action.sh
 */
public class ActionBench {
    private static final String RELEASE = "sha256:" + "a".repeat(64);

    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Ed25519SigningKey orchestrator = Ed25519SigningKey.fromSeed(seed(1));
        Ed25519SigningKey approver = Ed25519SigningKey.fromSeed(seed(2));
        SignerKeys orchestrators = SignerKeys.parse(List.of(SignerKeys.spec(orchestrator.publicKey())));
        SignerKeys approvers = SignerKeys.parse(List.of(SignerKeys.spec(approver.publicKey())));
        String contractText = """
                apiVersion: cloakpipe.co/v1alpha1
                kind: ToolContract
                metadata: { name: crm-tools }
                spec:
                  tools:
                    crm__patch:
                      sideEffect: true
                      requiresApproval: true
                      arguments:
                        tenant: { bindTo: task.tenant }
                        record: { bindTo: task.record }
                        patch:
                          type: object
                          minProperties: 1
                          additionalProperties: false
                          properties:
                            stage: { enum: [qualified, review] }
                            note:  { type: string, maxLength: 280 }
                      required: [tenant, record, patch]
                """;
        ToolContract contract = ToolContract.parse(contractText.getBytes(StandardCharsets.UTF_8), "crm-tools");
        ContractSet set = ContractSet.bind(List.of(contract.reference()), List.of(contract));
        Instant now = Instant.now();
        ObjectNode task = (ObjectNode) json.readTree("{\"taskId\":\"t-981\",\"tenant\":\"demo-co\",\"record\":\"lead-42\"}");
        byte[] ctxEnvelope = TaskContexts.sign(task, now, Duration.ofHours(8), orchestrator).toJson();
        TaskContext ctx = ((TaskContexts.Verified) TaskContexts.verify(ctxEnvelope, orchestrators, now, Duration.ofSeconds(30)))
                .context();
        JsonNode call = json.readTree("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"review\","
                + "\"note\":\"called back, wants a demo next week\"}}");
        String fp = CallFingerprint.of(RELEASE, "crm__patch", call);
        byte[] receipt = Approvals.issue(RELEASE, "crm__patch", fp, "t-981", null, "ops", now, Duration.ofHours(8), approver)
                .toJson();
        Map<String, byte[]> store = Map.of(fp, receipt);
        ActionBoundary boundary = new ActionBoundary(set, approvers, Duration.ofSeconds(30), Clock.systemUTC(),
                f -> Optional.ofNullable(store.get(f)));
        if (!(boundary.check(RELEASE, "crm__patch", call, ctx, false) instanceof ActionBoundary.Pass)) {
            throw new IllegalStateException("the benchmark call does not pass");
        }

        measure("boundary-check-approved", 50_000, () -> boundary.check(RELEASE, "crm__patch", call, ctx, false));
        measure("contract-check", 100_000, () -> set.rule("crm__patch").check(call, ctx));
        measure("fingerprint", 100_000, () -> CallFingerprint.of(RELEASE, "crm__patch", call));
        measure("receipt-verify-cold", 5_000, () -> new ApprovalVerifier().verify(receipt, fp, RELEASE, "crm__patch", "t-981",
                approvers, Instant.now(), Duration.ofSeconds(30)));
        measure("task-context-verify", 5_000, () -> TaskContexts.verify(ctxEnvelope, orchestrators, Instant.now(),
                Duration.ofSeconds(30)));
        wholeGate(contractText, orchestrator, approver, ctx, call);
    }

    /**
     * The gate's whole per-call work, as {@code GateCheck} and {@code ApprovalGate} ask it of a tenant's gate built by
     * {@code TenantGate.load} from real files: {@code release(tool)} (the certification file looked at, at most once
     * a second, and verified at every call: signature validity remembered for the exact bytes, window, revocations,
     * release, environment) then {@code ActionBoundary.check} of the approved call (contract, fingerprint, receipt
     * read from the approvals directory and verified, operation id); beside it a tool of the release with no contract.
     */
    private static void wholeGate(String contractText, Ed25519SigningKey orchestrator, Ed25519SigningKey approver,
            TaskContext ctx, JsonNode call) throws Exception {
        Path dir = Files.createTempDirectory("gate-bench");
        Ed25519SigningKey releaseKey = Ed25519SigningKey.fromSeed(seed(3));
        Path contract = Files.writeString(dir.resolve("contract.yaml"), contractText);
        StringBuilder tools = new StringBuilder("    - tool:crm__patch@1\n");
        for (int i = 0; i < 49; i++) {
            tools.append("    - tool:crm__tool_").append(i).append("@1\n");
        }
        Path manifestFile = Files.writeString(dir.resolve("release.yaml"), "apiVersion: cloakpipe.co/v1alpha1\nkind: Release\n"
                + "metadata: {name: bench}\nspec:\n  tools:\n" + tools + "  policies:\n    - "
                + ToolContract.parse(contractText.getBytes(StandardCharsets.UTF_8), "crm-tools").reference() + "\n");
        ReleaseManifest manifest = ReleaseManifest.read(manifestFile);
        String release = manifest.releaseHash();
        Instant now = Instant.now();
        Path cert = Files.write(dir.resolve("release.cert.json"), CertificationIssuer.certify(manifest, releaseKey,
                "production", now.minusSeconds(60), now.plus(Duration.ofDays(1)), now.minusSeconds(60)));
        String fp = CallFingerprint.of(release, "crm__patch", call);
        Path approvals = Files.createDirectories(dir.resolve("approvals"));
        Files.write(approvals.resolve(Approvals.fileName(fp)), Approvals.issue(release, "crm__patch", fp, "t-981", null,
                "ops", now, Duration.ofHours(8), approver).toJson());
        GateSettings settings = new GateSettings(manifestFile, cert, List.of(SignerKeys.spec(releaseKey.publicKey())),
                List.of("sha256:" + "0".repeat(64)), List.of("0123456789abcdef"), "production", GateSettings.Mode.ENFORCE,
                List.of(contract), List.of(SignerKeys.spec(orchestrator.publicKey())),
                List.of(SignerKeys.spec(approver.publicKey())), approvals, Duration.ZERO, Duration.ofSeconds(30));
        try (DirectoryApprovalStore store = new DirectoryApprovalStore(approvals)) {
            TenantGate gate = TenantGate.load("bench", settings, "bench.json", Clock.systemUTC(), null, store, null, null);
            JsonNode plain = new ObjectMapper().readTree("{\"id\":\"x-1\"}");
            if (!(gate.release("crm__patch") instanceof ReleaseGate.Pass)
                    || !(gate.boundary().check(release, "crm__patch", call, ctx, false) instanceof ActionBoundary.Pass p
                            && p.approval() != null && p.operationId() != null)
                    || !(gate.boundary().check(release, "crm__tool_7", plain, ctx, false) instanceof ActionBoundary.Pass)) {
                throw new IllegalStateException("the benchmark calls do not pass the gate");
            }
            measure("gate-per-call-approved", 50_000, () -> {
                if (!(gate.release("crm__patch") instanceof ReleaseGate.Pass)) {
                    throw new IllegalStateException("refused");
                }
                return gate.boundary().check(release, "crm__patch", call, ctx, false);
            });
            measure("gate-per-call-no-contract", 50_000, () -> {
                gate.release("crm__tool_7");
                return gate.boundary().check(release, "crm__tool_7", plain, ctx, false);
            });
            measure("gate-release-only", 50_000, () -> gate.release("crm__patch"));
            measure("receipt-read-from-directory", 50_000, () -> store.find(fp));
        }
    }

    private static byte[] seed(int b) {
        byte[] s = new byte[32];
        s[0] = (byte) b;
        return s;
    }

    private static Object sink;

    private static void measure(String label, int n, Supplier<Object> call) {
        for (int i = 0; i < n / 2; i++) {
            sink = call.get();
        }
        long[] ns = new long[n];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            sink = call.get();
            ns[i] = System.nanoTime() - s;
        }
        long total = System.nanoTime() - t0;
        Arrays.sort(ns);
        System.out.printf("{\"label\":\"%s\",\"calls\":%d,\"callsPerSec\":%.0f,\"p50ns\":%d,\"p90ns\":%d,\"p99ns\":%d}%n", label, n,
                n / (total / 1e9), ns[n / 2], ns[n * 9 / 10], ns[n * 99 / 100]);
    }
}
