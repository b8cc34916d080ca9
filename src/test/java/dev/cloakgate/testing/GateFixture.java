package dev.cloakgate.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.gate.Approvals;
import dev.cloakgate.gate.CallFingerprint;
import dev.cloakgate.gate.CertificationIssuer;
import dev.cloakgate.gate.ReleaseManifest;
import dev.cloakgate.gate.TaskContexts;
import dev.cloakgate.gate.ToolContract;

/**
 * Issue 11: one gated tenant as an operator sets it up, written while the gateway runs (it loads tenant files as they
 * appear): keys, a tool contract, a release manifest binding it, a certification, and the tenant file fronting the
 * {@code actions-server.mjs} fixture (upstream {@code pay}, so its tools are {@code pay__pay_invoice} …). Everything is
 * made with the project's own signing classes, as the commands make it.
 */
public final class GateFixture {
    public static final String ENVIRONMENT = "production";
    public final String tenant;
    public final Path dir;
    public final Path record;
    public final Path manifest;
    public final Path certification;
    public final Path approvals;
    public final Ed25519SigningKey releaseKey = Ed25519SigningKey.generate(new SecureRandom());
    public final Ed25519SigningKey orchestrator = Ed25519SigningKey.generate(new SecureRandom());
    public final Ed25519SigningKey approver = Ed25519SigningKey.generate(new SecureRandom());
    private ReleaseManifest release;

    public GateFixture(String tenant) throws IOException {
        this.tenant = tenant;
        this.dir = Files.createDirectories(Path.of(System.getProperty("test.data.dir")).resolve("gate-fixtures").resolve(tenant));
        this.record = dir.resolve("record.jsonl");
        this.manifest = dir.resolve("release.yaml");
        this.certification = dir.resolve("release.cert.json");
        this.approvals = dir.resolve("approvals");
        Files.deleteIfExists(record);
    }

    /** Writes the contract and a manifest binding it (and {@code tools} in spec.tools, {@code servers} as is). */
    public GateFixture release(String contractYaml, List<String> tools, String mcpServersYaml) throws IOException {
        Path contract = dir.resolve("contract.yaml");
        Files.writeString(contract, contractYaml);
        ToolContract c = ToolContract.parse(contractYaml.getBytes(StandardCharsets.UTF_8), "contract");
        StringBuilder m = new StringBuilder("apiVersion: cloakpipe.co/v1alpha1\nkind: Release\nmetadata:\n  name: ")
                .append(tenant).append("-release\nspec:\n  tools:\n");
        tools.forEach(t -> m.append("    - tool:").append(t).append("@1\n"));
        m.append("  policies:\n    - ").append(c.reference()).append('\n');
        if (mcpServersYaml != null) {
            m.append("  mcpServers:\n").append(mcpServersYaml);
        }
        Files.writeString(manifest, m.toString());
        release = ReleaseManifest.read(manifest);
        return this;
    }

    public String releaseHash() {
        return release.releaseHash();
    }

    /** Signs a certification of the manifest as it is now, valid from {@code from} to {@code until}. */
    public void certify(Ed25519SigningKey key, String environment, Instant from, Instant until) throws IOException {
        byte[] env = CertificationIssuer.certify(ReleaseManifest.read(manifest), key, environment, from, until, Instant.now());
        Path tmp = certification.resolveSibling(".cert.tmp");
        Files.write(tmp, env);
        Files.move(tmp, certification, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    public void certify() throws IOException {
        certify(releaseKey, ENVIRONMENT, Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofHours(2)));
    }

    /**
     * The tenant file: upstream {@code pay} (the actions server, recording to {@link #record}), the gate block (with
     * {@code gate} adding or overriding keys), and {@code extra} top-level keys (policy, sanitize).
     */
    public void writeTenant(Consumer<ObjectNode> gate, Consumer<ObjectNode> extra) throws IOException {
        ObjectNode t = Json.object();
        ObjectNode pay = t.putObject("upstreams").putObject("pay");
        pay.put("command", "node");
        pay.putArray("args").add(NodeFixtures.DIR.resolve("actions-server.mjs").toString()).add("stdio").add("--record")
                .add(record.toString()).add("--name").add("acme-pay");
        t.put("sanitize", false);
        t.set("auth", Upstreams.openAuth());
        ObjectNode g = t.putObject("gate");
        g.put("manifest", manifest.toString());
        g.put("certification", certification.toString());
        g.putArray("trust_keys").add(SignerKeys.spec(releaseKey.publicKey()));
        g.put("environment", ENVIRONMENT);
        g.putArray("contracts").add(dir.resolve("contract.yaml").toString());
        g.putArray("orchestrator_keys").add(SignerKeys.spec(orchestrator.publicKey()));
        g.putArray("approver_keys").add(SignerKeys.spec(approver.publicKey()));
        g.put("approvals_dir", approvals.toString());
        if (gate != null) {
            gate.accept(g);
        }
        if (extra != null) {
            extra.accept(t);
        }
        Path tenants = Path.of(System.getProperty("test.tenants.dir"));
        Path tmp = tenants.resolve("." + tenant + ".json.tmp");
        Files.writeString(tmp, Json.write(t));
        Files.move(tmp, tenants.resolve(tenant + ".json"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The {@code Cloakgate-Task-Context} header value of {@code context}, signed by {@code key}. */
    public String taskHeader(ObjectNode context, Ed25519SigningKey key) {
        return TaskContexts.headerValue(TaskContexts.sign(context, Instant.now().minusSeconds(5), Duration.ofHours(1), key));
    }

    /** An approver's receipt for one exact call, dropped into the approvals directory as {@code approve --out} does. */
    public String approve(String tool, ObjectNode arguments, String taskId, String operationId) throws IOException {
        String fp = CallFingerprint.of(releaseHash(), tool, arguments);
        byte[] receipt = Approvals.issue(releaseHash(), tool, fp, taskId, operationId, "approver@test", Instant.now(),
                Duration.ofMinutes(15), approver).toJson();
        Files.createDirectories(approvals);
        Path tmp = approvals.resolve("." + fp + ".tmp");
        Files.write(tmp, receipt);
        Files.move(tmp, approvals.resolve(Approvals.fileName(fp)), StandardCopyOption.ATOMIC_MOVE);
        return fp;
    }

    /** The upstream's own record: one JSON line per effect. */
    public List<String> effects() throws IOException {
        return Files.exists(record) ? Files.readAllLines(record).stream().filter(l -> !l.isBlank()).toList() : List.of();
    }
}
