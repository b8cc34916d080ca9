package dev.cloakgate.server;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point. Commands that must not serve ({@code --check}, {@code pins}, {@code ledger}) run as plain Java before Quarkus boots, so they
 * never bind the HTTP port of a gateway that is already running.
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    public static void main(String... args) {
        if (args.length > 0 && args[0].startsWith("--check")) {
            System.exit(new CheckCommand(System.out, System.err).run(args));
        }
        if (args.length > 0 && args[0].equals("pins")) {
            System.exit(new PinsCommand(System.out, System.err).run(args));
        }
        if (args.length > 1 && args[0].equals("ledger") && args[1].equals("export")) {
            System.exit(new LedgerExportCommand(System.out, System.err).run(args));
        }
        if (args.length > 1 && args[0].equals("ledger") && args[1].equals("verify")) {
            System.exit(new LedgerVerifyCommand(System.out, System.err).run(args));
        }
        if (args.length > 0 && args[0].equals("ledger")) {
            System.err.println("usage: ledger export --tenant T --out FILE [--from-seq N] [--to-seq N]"
                    + " | ledger verify FILE --trust-key KEYID=HEX [--trust-key ...]");
            System.exit(2);
        }
        Quarkus.run(Main.class, args);
    }

    @Override
    public int run(String... args) {
        Quarkus.waitForExit();
        return 0;
    }
}
