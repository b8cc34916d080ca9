package dev.cloakgate.server;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;

import dev.cloakgate.ledger.BundleWriter;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.ledger.LedgerStoreException;
import dev.cloakgate.ledger.LogKeys;
import dev.cloakgate.ledger.SigningKeyException;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.tenant.TenantParser;

/**
 * {@code ledger export --tenant T --out FILE [--from-seq N] [--to-seq N]}: the command-line twin of the auditor's
 * HTTP export. It reads the ledger under {@code cloakgate.data-dir} without taking its lock (so it runs beside a
 * gateway), or with {@code cloakgate.store=postgresql} the log the replicas share, through the same
 * {@code quarkus.datasource.*} settings (issue 17) and signs the bundle's manifest with the tenant's manifest key (derived, as the gateway does, from the
 * same settings the gateway reads). The
 * bundle is written to a temporary file and moved into place, so FILE is never half a bundle. Exit 0 written,
 * 2 usage, I/O, no ledger or no key.
 */
public final class LedgerExportCommand {
    private final PrintStream out;
    private final PrintStream err;

    public LedgerExportCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        String extra = Args.unexpected(args, 2, java.util.Set.of("--tenant", "--out", "--from-seq", "--to-seq"),
                java.util.Set.of());
        if (extra != null) {
            return usage("unexpected argument " + extra);
        }
        String tenant = Args.option(args, "--tenant");
        String file = Args.option(args, "--out");
        if (tenant == null || !TenantParser.TENANT_NAME.matcher(tenant).matches()) {
            return usage("--tenant NAME is required ([a-z0-9-]+)");
        }
        if (file == null) {
            return usage("--out FILE is required");
        }
        LedgerKeySettings settings = LedgerKeySettings.fromEnvironment();
        LogKeys keys;
        try {
            SigningKeys.Loaded key = settings.load(true);
            keys = settings.logKeys(tenant, settings.keyring(key));
            if (key.dev()) {
                err.println("ledger export: signing with the DEVELOPMENT key (" + key.source() + ")");
            }
        } catch (SigningKeyException | LedgerStoreException e) {
            err.println("ledger export: " + e.getMessage());
            return 2;
        }
        try (LedgerStore store = settings.openReader(tenant)) {
            long last = store.lastSeq();
            if (last < 0) {
                err.println("ledger export: the ledger of tenant " + tenant + " is empty");
                return 2;
            }
            long from = Args.seq(Args.option(args, "--from-seq"), 0);
            long to = Args.seq(Args.option(args, "--to-seq"), last);
            if (from > to || to > last) {
                return usage("entries " + from + ".." + to + " are not within 0.." + last + " (--from-seq <= --to-seq)");
            }
            Path target = Path.of(file).toAbsolutePath();
            Path tmp = Files.createTempFile(target.getParent(), ".export-", ".zip.part");
            try {
                try (OutputStream o = Files.newOutputStream(tmp)) {
                    new BundleWriter().write(store, from, to, keys, Clock.systemUTC(), o);
                }
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            out.println("exported entries " + from + ".." + to + " of tenant " + tenant + " to " + target);
            out.println("verify with: ledger verify " + target + " --tenant " + tenant + " --trust-key "
                    + keys.checkpoint().verifier().encoded() + " --trust-key " + keys.manifest().verifier().encoded());
            return 0;
        } catch (NumberFormatException e) {
            return usage("--from-seq and --to-seq are entry numbers (non-negative integers)");
        } catch (LedgerStoreException | IOException | IllegalArgumentException e) {
            err.println("ledger export: " + e.getMessage());
            return 2;
        }
    }


    private int usage(String why) {
        err.println("ledger export: " + why);
        err.println("usage: ledger export --tenant T --out FILE [--from-seq N] [--to-seq N]");
        return 2;
    }

}
