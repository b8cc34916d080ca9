package dev.cloakgate.server;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.gate.Approvals;
import dev.cloakgate.gate.CallFingerprint;
import dev.cloakgate.gate.OperationIds;
import dev.cloakgate.gate.TaskContexts;

/**
 * {@code approve --manifest M --tool T --args call.json [--task-context task.json] --key K [--expires 15m]
 * [--operation-id ID] --out DIR}: signs an approval receipt for one exact call (seed "Signed approval receipts") and
 * writes it, owner-only, as {@code DIR/<fingerprint>.approval.json}, where the gate looks for it. Prints the file's
 * path and the operation id. {@code task.json} is the orchestrator's context (its {@code taskId} is approved); without
 * it the receipt approves the call only in a session without a task context. The approver is the signing key's id.
 * Exit 0 written, 1 invalid input, 2 usage or I/O.
 */
public final class ApproveCommand {
    static final String USAGE = "usage: approve --manifest M --tool T --args call.json [--task-context task.json] --key K"
            + " [--expires 15m] [--operation-id ID] --out DIR";
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;

    public ApproveCommand(PrintStream out, PrintStream err) {
        this(out, err, Clock.systemUTC());
    }

    ApproveCommand(PrintStream out, PrintStream err, Clock clock) {
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    public int run(String... args) {
        String extra = Args.unexpected(args, 1, Set.of("--manifest", "--tool", "--args", "--task-context", "--key",
                "--expires", "--operation-id", "--out"), Set.of());
        String manifest = Args.option(args, "--manifest");
        String tool = Args.option(args, "--tool");
        String call = Args.option(args, "--args");
        String key = Args.option(args, "--key");
        String dir = Args.option(args, "--out");
        String expires = Args.option(args, "--expires");
        Duration validity = GateInputs.duration(expires == null ? "15m" : expires);
        if (extra != null || manifest == null || tool == null || tool.isEmpty() || call == null || key == null
                || dir == null || validity == null) {
            err.println("approve: " + (extra != null ? "unexpected argument " + extra
                    : validity == null ? "--expires is a number and s, m, h or d (15m)"
                    : "--manifest, --tool, --args, --key and --out are required"));
            err.println(USAGE);
            return 2;
        }
        String operationId = Args.option(args, "--operation-id");
        String taskFile = Args.option(args, "--task-context");
        return GateInputs.exitCode("approve", err, () -> {
            if (operationId != null && !OperationIds.valid(operationId)) {
                throw new IllegalArgumentException("--operation-id must match " + OperationIds.VALID.pattern());
            }
            String release = GateInputs.releaseHash(Path.of(manifest));
            JsonNode arguments = GateInputs.jsonObject(Path.of(call), "the call's arguments");
            String taskId = taskFile == null ? null
                    : TaskContexts.taskId(GateInputs.jsonObject(Path.of(taskFile), "the task context"));
            Ed25519SigningKey signer = Ed25519SigningKey.fromFile(Path.of(key));
            String fingerprint = CallFingerprint.of(release, tool, arguments);
            String approver = SignerKeys.keyId(signer.publicKey());
            String id = operationId == null ? Approvals.newOperationId() : operationId;
            byte[] receipt = Approvals.issue(release, tool, fingerprint, taskId, id, approver, clock.instant(), validity,
                    signer).toJson();
            Path target = Path.of(dir);
            if (!Files.isDirectory(target)) {
                Files.createDirectories(target, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path file = target.resolve(Approvals.fileName(fingerprint));
            GateInputs.writeOwnerOnly(file, receipt);
            out.println(file);
            out.println("operation id: " + id);
            return 0;
        });
    }
}
