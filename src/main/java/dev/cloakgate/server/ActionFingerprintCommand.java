package dev.cloakgate.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Set;

import dev.cloakgate.gate.CallFingerprint;

/**
 * {@code action fingerprint --manifest M --tool T --args call.json}: prints the fingerprint of one exact call (64 hex
 * digits), the name of its approval receipt ({@code <fingerprint>.approval.json}) and the {@code data.fingerprint}
 * of its {@code approval_required} refusal. {@code call.json} holds the call's {@code arguments} object. Runs
 * without serving. Exit 0 printed, 1 invalid manifest or arguments, 2 usage or I/O.
 */
public final class ActionFingerprintCommand {
    static final String USAGE = "usage: action fingerprint --manifest M --tool T --args call.json";
    private final PrintStream out;
    private final PrintStream err;

    public ActionFingerprintCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        String extra = Args.unexpected(args, 2, Set.of("--manifest", "--tool", "--args"), Set.of());
        String manifest = Args.option(args, "--manifest");
        String tool = Args.option(args, "--tool");
        String call = Args.option(args, "--args");
        if (extra != null || manifest == null || tool == null || tool.isEmpty() || call == null) {
            err.println("action fingerprint: " + (extra != null ? "unexpected argument " + extra : "--manifest, --tool and --args are required"));
            err.println(USAGE);
            return 2;
        }
        return GateInputs.exitCode("action fingerprint", err, () -> {
            out.println(CallFingerprint.of(GateInputs.releaseHash(Path.of(manifest)), tool,
                    GateInputs.jsonObject(Path.of(call), "the call's arguments")));
            return 0;
        });
    }
}
