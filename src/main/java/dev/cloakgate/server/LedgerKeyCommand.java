package dev.cloakgate.server;

import java.io.PrintStream;
import java.util.Set;

import dev.cloakgate.ledger.LedgerStoreException;
import dev.cloakgate.ledger.LogKeys;
import dev.cloakgate.ledger.SigningKeyException;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.tenant.TenantParser;

/**
 * {@code ledger key --tenant T}: prints the verifier keys of tenant T's log as an auditor pins them
 * ({@code ledger verify FILE --tenant T --trust-key <checkpoint key> --trust-key <manifest key>}), in the signed-note
 * form {@code <name>+<keyid>+<base64(0x01 || key)>}: on stdout the checkpoint key (named as the log's origin) on the
 * first line and the export manifest key ({@code <origin>/export}) on the second, and on stderr which is which and
 * where the master key came from. It reads the same settings as the gateway ({@link LedgerKeySettings}); with dev
 * mode on it reads (or, like the gateway's first start, creates) the development key under the data dir. Exit 0
 * printed, 2 usage, no key, or a log identity that contradicts the tenant's ledger.
 */
public final class LedgerKeyCommand {
    private final PrintStream out;
    private final PrintStream err;

    public LedgerKeyCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        String extra = Args.unexpected(args, 2, Set.of("--tenant"), Set.of());
        String tenant = Args.option(args, "--tenant");
        if (extra != null || tenant == null || !TenantParser.TENANT_NAME.matcher(tenant).matches()) {
            err.println("ledger key: " + (extra != null ? "unexpected argument " + extra
                    : "--tenant T is required: each tenant's log has its own keys"));
            err.println("usage: ledger key --tenant T   (reads cloakgate.ledger.signing-key-file, env CLOAKGATE_LEDGER_SIGNING_KEY"
                    + " or cloakgate.ledger.dev-key, and cloakgate.ledger.log-identity, as the gateway does)");
            return 2;
        }
        LedgerKeySettings settings = LedgerKeySettings.fromEnvironment();
        SigningKeys.Loaded key;
        LogKeys keys;
        try {
            key = settings.load(true);
            keys = settings.logKeys(tenant, settings.keyring(key));
        } catch (SigningKeyException | LedgerStoreException e) {
            err.println("ledger key: " + e.getMessage());
            return 2;
        }
        out.println(keys.checkpoint().verifier().encoded());
        out.println(keys.manifest().verifier().encoded());
        err.println("ledger key: tenant " + tenant + ", log " + keys.origin() + ": line 1 the checkpoint key, line 2 the"
                + " export manifest key; pin both (--trust-key each). Derived from " + (key.dev() ? "the DEVELOPMENT key, " : "")
                + key.source());
        return 0;
    }
}
