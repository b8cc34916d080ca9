package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.gate.ApprovalVerifier;
import dev.cloakgate.gate.CallFingerprint;
import dev.cloakgate.gate.Domains;
import dev.cloakgate.gate.GateDocuments;
import dev.cloakgate.gate.TaskContexts;

/** The action-boundary commands: what they print, what they write (owner-only), and their exit codes. */
class GateCommandsTest {
    private static final Ed25519SigningKey KEY = Ed25519SigningKey.fromSeed(new byte[32]);
    private static final SignerKeys TRUST = SignerKeys.parse(List.of(SignerKeys.spec(KEY.publicKey())));

    @TempDir
    Path dir;
    Path manifest;
    Path args;
    Path task;
    Path key;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void files() throws IOException {
        manifest = Files.writeString(dir.resolve("release.yaml"), """
                apiVersion: cloakgate.dev/v1alpha1
                kind: Release
                metadata: { name: crm-agent }
                spec:
                  tools: [ "tool:crm__patch@4" ]
                """);
        args = Files.writeString(dir.resolve("call.json"), "{\"record\":\"lead-42\",\"patch\":{\"stage\":\"review\"}}");
        task = Files.writeString(dir.resolve("task.json"), "{\"taskId\":\"t-981\",\"record\":\"lead-42\"}");
        key = Files.writeString(dir.resolve("approver.key"), HexFormat.of().formatHex(KEY.seed()));
    }

    private int run(String... argv) {
        out.reset();
        err.reset();
        return Main.command(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), argv);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String release() throws IOException {
        return "sha256:" + Domains.hash(Domains.RELEASE, GateDocuments.read(Files.readAllBytes(manifest), "m"));
    }

    private String fingerprint() throws IOException {
        return CallFingerprint.of(release(), "crm__patch", new ObjectMapper().readTree(args.toFile()));
    }

    private static boolean ownerOnly(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file)).equals("rw-------");
    }

    @Test
    void fingerprintPrintsTheCallsFingerprint() throws IOException {
        assertEquals(0, run("action", "fingerprint", "--manifest", manifest.toString(), "--tool", "crm__patch", "--args",
                args.toString()), err.toString());
        assertEquals(fingerprint() + "\n", stdout());
        assertEquals(2, run("action", "fingerprint", "--manifest", manifest.toString(), "--tool", "crm__patch"));
        assertEquals(2, run("action", "fingerprint", "--manifest", manifest.toString(), "--tool", "crm__patch", "--args",
                args.toString(), "--yes"));
        assertEquals(2, run("action", "fingerprint", "--manifest", dir.resolve("none.yaml").toString(), "--tool", "t",
                "--args", args.toString()));
        Path list = Files.writeString(dir.resolve("list.json"), "[1]");
        assertEquals(1, run("action", "fingerprint", "--manifest", manifest.toString(), "--tool", "t", "--args", list.toString()));
        Path dup = Files.writeString(dir.resolve("dup.json"), "{\"a\":1,\"a\":2}");
        assertEquals(1, run("action", "fingerprint", "--manifest", manifest.toString(), "--tool", "t", "--args", dup.toString()));
    }

    @Test
    void approveWritesAnOwnerOnlyReceiptTheGateAccepts() throws IOException {
        Path approvals = dir.resolve("approvals");
        assertEquals(0, run("approve", "--manifest", manifest.toString(), "--tool", "crm__patch", "--args", args.toString(),
                "--task-context", task.toString(), "--key", key.toString(), "--expires", "15m", "--operation-id", "op-77",
                "--out", approvals.toString()), err.toString());
        Path receipt = approvals.resolve(fingerprint() + ".approval.json");
        assertEquals(receipt + "\noperation id: op-77\n", stdout());
        assertTrue(ownerOnly(receipt));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(approvals)));
        ApprovalVerifier.Approved a = assertInstanceOf(ApprovalVerifier.Approved.class, new ApprovalVerifier().verify(
                Files.readAllBytes(receipt), fingerprint(), release(), "crm__patch", "t-981", TRUST, Instant.now(), Duration.ZERO));
        assertEquals("op-77", a.operationId());
        // without a task context it approves the call outside any task, with a fresh operation id
        assertEquals(0, run("approve", "--manifest", manifest.toString(), "--tool", "crm__patch", "--args", args.toString(),
                "--key", key.toString(), "--out", approvals.toString()), err.toString());
        assertTrue(stdout().matches("(?s).*operation id: [0-9a-f-]{36}\n"), stdout());
        assertInstanceOf(ApprovalVerifier.Approved.class, new ApprovalVerifier().verify(Files.readAllBytes(receipt),
                fingerprint(), release(), "crm__patch", null, TRUST, Instant.now(), Duration.ZERO));
    }

    @Test
    void approveRefusesWhatIsWrongAndSaysSo() {
        String[] base = {"approve", "--manifest", manifest.toString(), "--tool", "crm__patch", "--args", args.toString(),
                "--key", key.toString(), "--out", dir.resolve("a").toString()};
        assertEquals(1, run(concat(base, "--operation-id", "has space")));
        assertEquals(2, run(concat(base, "--expires", "15 minutes")));
        assertEquals(2, run("approve", "--manifest", manifest.toString()));
        assertEquals(2, run(concat(base, "--task-context", dir.resolve("none.json").toString())));
        assertEquals(1, run(concat(base, "--task-context", args.toString())), "a context without taskId");
        assertTrue(err.toString().contains("taskId"), err.toString());
        assertEquals(List.of(), List.of(dir.resolve("a").toFile().list() == null ? new String[0] : dir.resolve("a").toFile().list()));
    }

    @Test
    void taskSignWritesTheEnvelopeAndPrintsTheHeaderValue() throws IOException {
        Path env = dir.resolve("task.dsse.json");
        assertEquals(0, run("task", "sign", "--context", task.toString(), "--key", key.toString(), "--expires", "2h",
                "--out", env.toString()), err.toString());
        assertTrue(ownerOnly(env));
        String header = stdout().strip();
        TaskContexts.Verified v = assertInstanceOf(TaskContexts.Verified.class, TaskContexts.verifyHeader(header, TRUST,
                Instant.now(), Duration.ZERO));
        assertEquals("t-981", v.context().taskId());
        assertInstanceOf(TaskContexts.Verified.class, TaskContexts.verify(Files.readAllBytes(env), TRUST, Instant.now(), Duration.ZERO));
        assertEquals(1, run("task", "sign", "--context", args.toString(), "--key", key.toString(), "--out", env.toString()));
        assertEquals(2, run("task", "sign", "--context", task.toString(), "--out", env.toString()));
        assertTrue(Main.USAGE.contains("task sign --context task.json") && Main.USAGE.contains("action fingerprint")
                && Main.USAGE.contains("approve --manifest"));
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
