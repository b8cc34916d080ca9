package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;

/**
 * Issue 11: an operator's working directory for a gated tenant, made only with the packaged jar's own commands, each
 * run exactly as the README writes it (relative paths, in the directory): keys, a tool contract and the release that
 * binds it, a certification, the tenant file, a signed task context. The tenant {@code pay} fronts
 * {@code actions-server.mjs} (upstream {@code pay}), which keeps its own record of every effect in {@link #record}.
 */
final class GateOperator {
    static final String JAR = "java -jar target/quarkus-app/quarkus-run.jar";
    /** The settings the gateway and every command that reads its state share. */
    static final String SETTINGS = "-Dcloakgate.tenants-dir=tenants -Dcloakgate.data-dir=data"
            + " -Dcloakgate.ledger.signing-key-file=ledger.key";
    static final String WITH_SETTINGS = "java " + SETTINGS + " -jar target/quarkus-app/quarkus-run.jar";

    // the README's lines, in the order an operator runs them
    static final String KEYGEN_RELEASE = JAR + " release keygen --out release.key";
    static final String KEYGEN_APPROVER = JAR + " release keygen --out approver.key";
    static final String KEYGEN_ORCHESTRATOR = JAR + " release keygen --out orchestrator.key";
    static final String KEYGEN_LEDGER = JAR + " release keygen --out ledger.key";
    static final String CONTRACT_REF = JAR + " release hash --contract contract.yaml";
    static final String RELEASE_HASH = JAR + " release hash --manifest release.yaml";
    static final String CERTIFY = JAR + " release certify --manifest release.yaml --key release.key --environment production"
            + " --expires 30d --out release.cert.json";
    static final String CHECK = WITH_SETTINGS + " --check";
    static final String START = WITH_SETTINGS;
    static final String TASK_SIGN = JAR + " task sign --context task.json --key orchestrator.key --expires 1h --out task.dsse.json";
    static final String FINGERPRINT = JAR + " action fingerprint --manifest release.yaml --tool pay__pay_invoice --args call.json";
    static final String APPROVE = JAR + " approve --manifest release.yaml --tool pay__pay_invoice --args call.json"
            + " --task-context task.json --key approver.key --expires 15m --out approvals";
    static final String LEDGER_EXPORT = WITH_SETTINGS + " ledger export --tenant pay --out pay-ledger.zip";
    static final String LEDGER_KEY = WITH_SETTINGS + " ledger key --tenant pay";
    static final String LEDGER_VERIFY = JAR + " ledger verify pay-ledger.zip --tenant pay --trust-key CHECKPOINT_KEY"
            + " --trust-key MANIFEST_KEY";
    static final String OPERATIONS_UNKNOWN = WITH_SETTINGS + " operations list --tenant pay --state unknown";
    static final String RECONCILE = WITH_SETTINGS + " operations reconcile --tenant pay OPERATION_ID --outcome not-applied";

    static final String CONTRACT = dev.cloakgate.testing.GateFixture.PAY_CONTRACT;
    private static final Pattern SIGNER = Pattern.compile("(?m)^([0-9a-f]{16}=[0-9a-f]{64})$");

    final Path dir;
    final Path record;
    final String releaseHash;
    final String taskHeader;
    final String auditorToken;

    private GateOperator(Path dir, Path record, String releaseHash, String taskHeader, String auditorToken) {
        this.dir = dir;
        this.record = record;
        this.releaseHash = releaseHash;
        this.taskHeader = taskHeader;
        this.auditorToken = auditorToken;
    }

    /** Sets the tenant up in {@code dir} with the commands, as an operator would before starting the gateway. */
    static GateOperator setUp(Path dir) throws Exception {
        Path record = dir.resolve("upstream-record.jsonl");
        String releaseKey = signer(run(dir, KEYGEN_RELEASE));
        String approverKey = signer(run(dir, KEYGEN_APPROVER));
        String orchestratorKey = signer(run(dir, KEYGEN_ORCHESTRATOR));
        run(dir, KEYGEN_LEDGER);
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("release.key"))), "a key is owner-only");

        Files.writeString(dir.resolve("contract.yaml"), CONTRACT);
        String reference = firstLine(run(dir, CONTRACT_REF), "policy:");
        assertTrue(reference.matches("policy:pay-tools@sha256:[0-9a-f]{64}"), reference);
        Files.writeString(dir.resolve("release.yaml"), """
                apiVersion: cloakpipe.co/v1alpha1
                kind: Release
                metadata: { name: pay-agent }
                spec:
                  tools:
                    - tool:pay__pay_invoice@1
                    - tool:pay__hang_pay@1
                  policies:
                    - %s
                """.formatted(reference));
        String releaseHash = firstLine(run(dir, RELEASE_HASH), "sha256:");
        String certified = run(dir, CERTIFY);
        assertTrue(certified.contains("release " + releaseHash), certified);
        assertTrue(certified.contains("environment production"), certified);

        byte[] secret = new byte[24];
        new java.security.SecureRandom().nextBytes(secret);
        String auditorToken = "audit-" + HexFormat.of().formatHex(secret);
        String auditorSha = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(auditorToken.getBytes(StandardCharsets.UTF_8)));
        Files.createDirectories(dir.resolve("tenants"));
        Files.writeString(dir.resolve("tenants/pay.json"), """
                {
                  "upstreams": { "pay": { "command": "node", "args": [%s, "stdio", "--record", %s, "--name", "acme-pay"] } },
                  "auth": { "mode": "none", "principals": { "audit": { "roles": ["auditor"], "tokens_sha256": ["%s"] } } },
                  "gate": {
                    "manifest": "release.yaml",
                    "certification": "release.cert.json",
                    "trust_keys": ["%s"],
                    "environment": "production",
                    "contracts": ["contract.yaml"],
                    "orchestrator_keys": ["%s"],
                    "approver_keys": ["%s"],
                    "approvals_dir": "approvals"
                  }
                }
                """.formatted(quoted(NodeFixtures.DIR.resolve("actions-server.mjs").toString()), quoted(record.toString()),
                auditorSha, releaseKey, orchestratorKey, approverKey));
        String checked = run(dir, CHECK);
        assertTrue(checked.contains("ok: tenant pay"), checked);

        Files.writeString(dir.resolve("task.json"), "{\"taskId\": \"t-1001\", \"customer\": \"acme\"}\n");
        Matcher header = Pattern.compile("(?m)^([A-Za-z0-9+/=]{200,})$").matcher(run(dir, TASK_SIGN));
        assertTrue(header.find(), "the header value on a line of its own");
        return new GateOperator(dir, record, releaseHash, header.group(1), auditorToken);
    }

    /** Runs a README line in the directory; it must succeed. Its output (stdout and stderr). */
    static String run(Path dir, String line) throws Exception {
        GatewayProcess.Result r = GatewayProcess.runAsWritten(dir, line);
        assertEquals(0, r.exit(), line + "\n" + r.output());
        return r.output();
    }

    String run(String line) throws Exception {
        return run(dir, line);
    }

    GatewayProcess start() throws Exception {
        return GatewayProcess.startAsWritten(dir, START);
    }

    /** The upstream's own record: one line per effect. */
    List<String> effects() throws Exception {
        return Files.exists(record) ? Files.readAllLines(record).stream().filter(l -> !l.isBlank()).toList() : List.of();
    }

    /** The entries of a ledger bundle, in order. */
    static List<JsonNode> entries(Path bundle) throws Exception {
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(bundle.toFile())) {
            String text = new String(zip.getInputStream(zip.getEntry("entries.jsonl")).readAllBytes(), StandardCharsets.UTF_8);
            return text.lines().filter(l -> !l.isBlank()).map(Json::parse).toList();
        }
    }

    /** Exports the ledger with the command, prints the key with the command and verifies offline with it: valid. */
    List<JsonNode> exportAndVerify() throws Exception {
        Files.deleteIfExists(dir.resolve("pay-ledger.zip"));
        run(LEDGER_EXPORT);
        List<String> keys = verifierKeys(run(LEDGER_KEY));
        String verified = run(LEDGER_VERIFY.replace("CHECKPOINT_KEY", keys.get(0)).replace("MANIFEST_KEY", keys.get(1)));
        assertTrue(Json.parse(verified.substring(verified.indexOf('{'))).path("valid").asBoolean(), verified);
        return entries(dir.resolve("pay-ledger.zip"));
    }

    static ObjectNode params(String tool, ObjectNode arguments) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", arguments);
        return p;
    }

    private static String signer(String output) {
        Matcher m = SIGNER.matcher(output);
        assertTrue(m.find(), "KEYID=HEX on a line of its own: " + output);
        return m.group(1);
    }

    /**
     * What {@code ledger key --tenant T} prints for auditors to pin: the checkpoint key's and then the manifest key's
     * verifier key ({@code <name>+<keyid>+<base64>}), each on a line of its own, the manifest key named
     * {@code <checkpoint key's name>/export}.
     */
    static List<String> verifierKeys(String output) {
        Matcher m = Pattern.compile("(?m)^([^\\s+]+\\+[0-9a-f]{8}\\+[A-Za-z0-9+/=]{44})$").matcher(output);
        List<String> keys = new java.util.ArrayList<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        assertEquals(2, keys.size(), "two verifier keys on lines of their own: " + output);
        assertEquals(keys.get(0).substring(0, keys.get(0).indexOf('+')) + "/export",
                keys.get(1).substring(0, keys.get(1).indexOf('+')), output);
        return keys;
    }

    private static String firstLine(String output, String prefix) {
        return output.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with '" + prefix + "': " + output));
    }

    private static String quoted(String s) {
        return Json.write(TextNode.valueOf(s));
    }
}
