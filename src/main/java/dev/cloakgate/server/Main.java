package dev.cloakgate.server;

import java.io.PrintStream;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point. Without arguments it serves. Commands that must not serve ({@code --check}, {@code pins},
 * {@code ledger}) run as plain Java before Quarkus boots, so they never bind the ports of a gateway that is
 * already running; anything else ({@code --help}, a typo) prints the usage and exits 2, never starts a server.
 */
@QuarkusMain
public class Main implements QuarkusApplication {
    /** What {@code --help} and every unknown argument print. */
    static final String USAGE = """
            usage: java [-Dproperty=value ...] -jar quarkus-run.jar [COMMAND]
              (no command)                serve the gateway (settings as -D properties or env, README "Configuration")
              --check                     validate every tenant file, the detection self-check and the signing key
              pins list --tenant T        pinned tool definitions, quarantined ones with what changed
              pins diff --tenant T [--tool UPSTREAM/NAME | --upstream U]
                                          quarantined definitions, old and new side by side
              pins accept --tenant T --tool UPSTREAM/NAME --sha256 HEX
              pins accept --tenant T --upstream U [--yes]
                                          accept pending definitions (by tool, or every one of an upstream)
              ledger key --tenant T       the tenant log's verifier keys as auditors pin them (checkpoint, manifest)
              ledger export --tenant T --out FILE [--from-seq N] [--to-seq N]
              ledger verify FILE [--tenant T] [--origin O] --trust-key KEY [--trust-key ...]
            """
            // issue 11: action boundary
            + """
              action fingerprint --manifest M --tool T --args call.json
                                          the fingerprint of one exact call (its receipt is <fingerprint>.approval.json)
              approve --manifest M --tool T --args call.json [--task-context task.json] --key K [--expires 15m]
                      [--operation-id ID] --out DIR
                                          sign an approval receipt for that call into DIR (owner-only)
              task sign --context task.json --key K [--expires 1h] --out FILE
                                          sign a task context; prints the Cloakgate-Task-Context header value
            """
            // end issue 11: action boundary
            // issue 11: release
            + """
              release keygen --out FILE   a new Ed25519 key for the gate (owner-only, never overwritten); prints KEYID=HEX
              release certify --manifest M --key K --environment E [--not-before T] [--expires DURATION | --not-after T] --out FILE
                                          sign a certification of a release manifest (default validity 30d)
              release hash --manifest M   the release hash of a manifest (sha256:HEX)
              release hash --contract C   a tool contract's reference for spec.policies (policy:NAME@sha256:HEX)
              release tools-digest --tools FILE
                                          the toolsDigest of an upstream's tools/list result, for spec.mcpServers
            """
            // end issue 11: release
            // issue 11: operations
            + """
              operations list --tenant T [--state S]
                                          the gate's operations (S: in_flight, done, failed, unknown, not_applied)
              operations reconcile --tenant T ID --outcome done|not-applied [--force]
                                          settle an operation whose outcome is unknown (in_flight needs --force)
            """
            // end issue 11: operations
            + """
              --help                      this text
            Commands read the same settings as the gateway (cloakgate.data-dir, cloakgate.ledger.*): give them the
            same -D properties or environment. Exit 0 done, 1 refused or invalid, 2 usage or I/O.""";

    public static void main(String... args) {
        int exit = command(System.out, System.err, args);
        if (exit >= 0) {
            System.exit(exit);
        }
        Quarkus.run(Main.class, args);
    }

    /** Runs the command {@code args} name and returns its exit code; -1 when there is none and the gateway should serve. */
    static int command(PrintStream out, PrintStream err, String... args) {
        if (args.length == 0) {
            return -1;
        }
        String first = args[0];
        String second = args.length > 1 ? args[1] : "";
        if (first.equals("--check") && args.length == 1) {
            return new CheckCommand(out, err).run(args);
        }
        if (first.equals("pins")) {
            return new PinsCommand(out, err).run(args);
        }
        if (first.equals("ledger") && second.equals("export")) {
            return new LedgerExportCommand(out, err).run(args);
        }
        if (first.equals("ledger") && second.equals("verify")) {
            return new LedgerVerifyCommand(out, err).run(args);
        }
        if (first.equals("ledger") && second.equals("key")) {
            return new LedgerKeyCommand(out, err).run(args);
        }
        // issue 11: operations
        if (first.equals("operations")) {
            return new OperationsCommand(out, err).run(args);
        }
        // issue 11: action boundary
        if (first.equals("action") && second.equals("fingerprint")) {
            return new ActionFingerprintCommand(out, err).run(args);
        }
        if (first.equals("approve")) {
            return new ApproveCommand(out, err).run(args);
        }
        if (first.equals("task") && second.equals("sign")) {
            return new TaskSignCommand(out, err).run(args);
        }
        // end issue 11: action boundary
        // issue 11: release
        if (first.equals("release")) {
            return new ReleaseCommand(out, err).run(args);
        }
        // end issue 11: release
        if (!first.equals("--help") && !first.equals("-h")) {
            err.println("unknown command or argument: " + first);
        }
        err.println(USAGE);
        return 2;
    }

    @Override
    public int run(String... args) {
        Quarkus.waitForExit();
        return 0;
    }
}
