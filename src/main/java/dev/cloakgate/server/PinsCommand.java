package dev.cloakgate.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import dev.cloakgate.policy.PinStore;
import dev.cloakgate.tenant.TenantParser;

/**
 * {@code pins list --tenant T} and {@code pins accept --tenant T --tool UPSTREAM/NAME --sha256 HEX}: the
 * operator's side of pinned tool definitions. A quarantined tool (its definition changed since it was pinned)
 * is callable again once its new hash is accepted; the hash must be the pending one, so an operator accepts
 * exactly the definition they reviewed. Runs without serving, against {@code cloakgate.data-dir}; safe while
 * the gateway runs (the pin file is locked for every change). Exit 0 done, 1 refused, 2 usage or I/O.
 */
public final class PinsCommand {
    private final PrintStream out;
    private final PrintStream err;

    public PinsCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        if (args.length < 2) {
            return usage("missing subcommand");
        }
        String extra = Args.unexpected(args, 2, java.util.Set.of("--tenant", "--tool", "--sha256"), java.util.Set.of());
        if (extra != null) {
            return usage("unexpected argument " + extra);
        }
        String tenant = Args.option(args, "--tenant");
        if (tenant == null || !TenantParser.TENANT_NAME.matcher(tenant).matches()) {
            return usage("--tenant NAME is required ([a-z0-9-]+)");
        }
        PinStore pins = new PinStore(Path.of(CheckCommand.setting("cloakgate.data-dir", "data")), tenant);
        try {
            switch (args[1]) {
                case "list" -> {
                    Map<String, PinStore.Pin> all = pins.all();
                    for (PinStore.Pin p : all.values()) {
                        out.println(p.tool() + " " + p.sha256() + (p.pending() == null ? " pinned"
                                : " QUARANTINED pending " + p.pending()));
                    }
                    out.println(all.size() + " pinned tool(s) for tenant " + tenant + " in " + pins.file());
                    return 0;
                }
                case "accept" -> {
                    String tool = Args.option(args, "--tool");
                    String hash = Args.option(args, "--sha256");
                    if (tool == null || hash == null || !hash.matches("[0-9a-f]{64}")) {
                        return usage("accept needs --tool UPSTREAM/NAME and --sha256 HEX (64 lower-case hex digits)");
                    }
                    if (!pins.accept(tool, hash)) {
                        err.println("refused: " + tool + " has no pending definition with sha256 " + hash
                                + " (pins list shows what is pending)");
                        return 1;
                    }
                    out.println("accepted: " + tool + " is pinned to " + hash);
                    return 0;
                }
                default -> {
                    return usage("unknown subcommand " + args[1]);
                }
            }
        } catch (IOException e) {
            err.println("pins: " + e.getMessage());
            return 2;
        }
    }

    private int usage(String why) {
        err.println("pins: " + why);
        err.println("usage: pins list --tenant T | pins accept --tenant T --tool UPSTREAM/NAME --sha256 HEX");
        return 2;
    }

}
