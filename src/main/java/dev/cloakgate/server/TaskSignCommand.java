package dev.cloakgate.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.gate.TaskContexts;

/**
 * {@code task sign --context task.json --key K [--expires 1h] --out FILE}: the orchestrator's side of a trusted task
 * context. Signs the JSON object in {@code task.json} (it must hold a string {@code taskId}) with an orchestrator key,
 * writes the DSSE envelope to {@code FILE} (owner-only: a context may describe a person's task) and prints the value
 * of the {@code Cloakgate-Task-Context} header (base64 of the envelope) on stdout, for the agent's orchestrator to
 * send at {@code initialize}. Exit 0 signed, 1 invalid input, 2 usage or I/O.
 */
public final class TaskSignCommand {
    static final String USAGE = "usage: task sign --context task.json --key K [--expires 1h] --out FILE";
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;

    public TaskSignCommand(PrintStream out, PrintStream err) {
        this(out, err, Clock.systemUTC());
    }

    TaskSignCommand(PrintStream out, PrintStream err, Clock clock) {
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    public int run(String... args) {
        String extra = Args.unexpected(args, 2, Set.of("--context", "--key", "--expires", "--out"), Set.of());
        String context = Args.option(args, "--context");
        String key = Args.option(args, "--key");
        String file = Args.option(args, "--out");
        String expires = Args.option(args, "--expires");
        Duration validity = GateInputs.duration(expires == null ? "1h" : expires);
        if (extra != null || context == null || key == null || file == null || validity == null) {
            err.println("task sign: " + (extra != null ? "unexpected argument " + extra
                    : validity == null ? "--expires is a number and s, m, h or d (1h)"
                    : "--context, --key and --out are required"));
            err.println(USAGE);
            return 2;
        }
        return GateInputs.exitCode("task sign", err, () -> {
            Dsse.Envelope envelope = TaskContexts.sign(GateInputs.jsonObject(Path.of(context), "the task context"),
                    clock.instant(), validity, Ed25519SigningKey.fromFile(Path.of(key)));
            GateInputs.writeOwnerOnly(Path.of(file), envelope.toJson());
            out.println(TaskContexts.headerValue(envelope));
            err.println("task sign: wrote " + file + ", valid for " + validity + "; send the line above as the "
                    + TaskContexts.HEADER + " header");
            return 0;
        });
    }
}
