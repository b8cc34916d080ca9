package dev.cloakgate.server;

import java.io.PrintStream;
import java.util.Set;

import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.ledger.SigningKeyException;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.ledger.TrustedKeys;

/**
 * {@code ledger key}: prints the public half of the ledger signing key as an auditor pins it
 * ({@code ledger verify FILE --trust-key KEYID=HEX}), one line {@code KEYID=HEX} on stdout, where it came from on
 * stderr. It reads the same settings as the gateway ({@link LedgerKeySettings}); with dev mode on it reads (or, like
 * the gateway's first start, creates) the development key under the data dir. Exit 0 printed, 2 usage or no key.
 */
public final class LedgerKeyCommand {
    private final PrintStream out;
    private final PrintStream err;

    public LedgerKeyCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        String extra = Args.unexpected(args, 2, Set.of(), Set.of());
        if (extra != null) {
            err.println("ledger key: unexpected argument " + extra);
            err.println("usage: ledger key   (reads cloakgate.ledger.signing-key-file, env CLOAKGATE_LEDGER_SIGNING_KEY"
                    + " or cloakgate.ledger.dev-key, as the gateway does)");
            return 2;
        }
        SigningKeys.Loaded key;
        try {
            key = LedgerKeySettings.fromEnvironment().load(true);
        } catch (SigningKeyException e) {
            err.println("ledger key: " + e.getMessage());
            return 2;
        }
        NoteSigner signer = key.signer();
        out.println(TrustedKeys.spec(signer));
        err.println("ledger key: " + (key.dev() ? "the DEVELOPMENT key, " : "") + "from " + key.source());
        return 0;
    }
}
