package dev.cloakgate.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.cloakgate.ledger.BundleVerifier;
import dev.cloakgate.ledger.LogPins;
import dev.cloakgate.ledger.TrustedKeys;
import dev.cloakgate.ledger.VerifyReport;
import dev.cloakgate.ledger.WitnessCosignatures;

/**
 * {@code ledger verify FILE [--tenant T] [--origin O] --trust-key KEY [--trust-key ...] [--previous OLD.zip]}: checks
 * an exported ledger bundle offline, with nothing but the file, the keys the auditor trusts (verifier keys or
 * {@code KEYID=HEX}) and, when given, the log it must be (and, with {@code --previous}, that it extends the auditor's
 * previous export of the same log); prints the JSON report on stdout. Exit 0 valid,
 * 1 invalid (the report says every reason), 2 usage or I/O.
 */
public final class LedgerVerifyCommand {
    private final PrintStream out;
    private final PrintStream err;

    public LedgerVerifyCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        int i = 0;
        if (i < args.length && args[i].equals("ledger")) {
            i++;
        }
        if (i >= args.length || !args[i].equals("verify")) {
            return usage("missing subcommand verify");
        }
        i++;
        String file = null;
        List<String> keys = new ArrayList<>();
        String pinTenant = null;
        String pinOrigin = null;
        // ---- issue 15, witness cosignatures ----
        List<String> witnessKeys = new ArrayList<>();
        String minWitnesses = null;
        // ---- end issue 15 ----
        String previous = null; // issue 15, ledger-checks: --previous OLD.zip
        for (; i < args.length; i++) {
            // ---- issue 15, witness cosignatures ----
            if (args[i].equals("--witness") || args[i].equals("--min-witnesses")) {
                if (i + 1 >= args.length) {
                    return usage(args[i] + " needs a value");
                }
                if (args[i].equals("--witness")) {
                    witnessKeys.add(args[++i]);
                } else if (minWitnesses != null) {
                    return usage("--min-witnesses is given twice");
                } else {
                    minWitnesses = args[++i];
                }
                continue;
            }
            // ---- end issue 15 ----
            // ---- issue 15, ledger-checks: --previous ----
            if (args[i].equals("--previous")) {
                if (i + 1 >= args.length || previous != null) {
                    return usage("--previous needs one value: the auditor's previous export of the same log (OLD.zip)");
                }
                previous = args[++i];
                continue;
            }
            // ---- end of issue 15, ledger-checks ----
            if (args[i].equals("--trust-key")) {
                if (i + 1 >= args.length) {
                    return usage("--trust-key needs a value: a verifier key NAME+KEYID+KEY, or KEYID=HEX");
                }
                keys.add(args[++i]);
            // ---- issue 15, log identity: the log the auditor expects ----
            } else if (args[i].equals("--tenant") || args[i].equals("--origin")) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    return usage(args[i] + " needs a value");
                }
                if (args[i].equals("--tenant")) {
                    pinTenant = args[++i];
                } else {
                    pinOrigin = args[++i];
                }
            // ---- end issue 15 ----
            } else if (args[i].startsWith("--")) {
                return usage("unknown option " + args[i]);
            } else if (file == null) {
                file = args[i];
            } else {
                return usage("one bundle file at a time (got " + file + " and " + args[i] + ")");
            }
        }
        if (file == null) {
            return usage("missing the bundle FILE");
        }
        if (keys.isEmpty()) {
            return usage("at least one --trust-key is required: nothing verifies without a trusted key");
        }
        TrustedKeys trusted;
        try {
            trusted = TrustedKeys.parse(keys);
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        // ---- issue 15, witness cosignatures: --min-witnesses defaults to 1 when a --witness is pinned ----
        WitnessCosignatures witnesses = null;
        if (!witnessKeys.isEmpty() || minWitnesses != null) {
            if (minWitnesses != null && !minWitnesses.matches("0|[1-9][0-9]{0,5}")) {
                return usage("--min-witnesses is a number of witnesses (got '" + minWitnesses + "')");
            }
            try {
                witnesses = WitnessCosignatures.parse(witnessKeys, minWitnesses == null ? 1 : Integer.parseInt(minWitnesses));
            } catch (IllegalArgumentException e) {
                return usage(e.getMessage());
            }
        }
        // ---- end issue 15 ----
        VerifyReport report;
        // ---- issue 15, ledger-checks: --previous ----
        if (previous != null && (!Files.isRegularFile(Path.of(previous)) || !Files.isReadable(Path.of(previous)))) {
            err.println("ledger verify: cannot read the previous export " + previous
                    + " (give the path of the bundle the auditor verified before this one)");
            return 2;
        }
        // ---- end of issue 15, ledger-checks ----
        try {
            // issue 15: the log pinned, and the witnesses (null: none)
            BundleVerifier verifier = new BundleVerifier(trusted, new LogPins(pinTenant, pinOrigin), witnesses);
            report = previous == null ? verifier.verify(Path.of(file)) : verifier.verify(Path.of(file), Path.of(previous));
        } catch (IOException e) {
            err.println("ledger verify: cannot read " + file + ": " + e.getMessage()
                    + " (give the path of a bundle written by ledger export)");
            return 2;
        }
        out.println(report.toJson());
        return report.valid() ? 0 : 1;
    }

    private int usage(String why) {
        err.println("ledger verify: " + why);
        err.println("usage: ledger verify FILE [--tenant T] [--origin O] --trust-key KEY [--trust-key KEY ...] [--previous OLD.zip]");
        err.println("  KEY is a verifier key NAME+KEYID+BASE64 as `ledger key --tenant T` prints it (the checkpoint key and");
        err.println("  the manifest key), or KEYID=HEX: the 8-hex-digit key ID and the 64-hex-digit Ed25519 public key");
        err.println("  --tenant, --origin: the log the bundle must be; without them the report says pinned: false");
        err.println("  [--witness VKEY ...] [--min-witnesses N]: the last checkpoint must carry valid cosignatures of at least N"
                + " (default 1) of the pinned witnesses (VKEY: <name>+<key ID>+<base64(0x04 || Ed25519 key)>)");
        return 2;
    }
}
