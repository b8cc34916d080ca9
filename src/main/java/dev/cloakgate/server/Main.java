package dev.cloakgate.server;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point. Commands that must not serve ({@code --check}, {@code pins}) run as plain Java before Quarkus boots, so they
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
        Quarkus.run(Main.class, args);
    }

    @Override
    public int run(String... args) {
        Quarkus.waitForExit();
        return 0;
    }
}
