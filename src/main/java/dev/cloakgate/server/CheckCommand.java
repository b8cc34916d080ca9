package dev.cloakgate.server;

import java.io.PrintStream;
import java.nio.file.Path;

import dev.cloakgate.cloak.CloakingSetup;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.ledger.SigningKeyException;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.tenant.EnvExpander;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.cloakgate.tenant.TenantConfigException;
import dev.cloakgate.tenant.TenantParser;
import dev.cloakgate.tenant.TenantRegistry;

/**
 * {@code --check}: validates every tenant file, runs the detection self-check and reads the ledger signing key,
 * without serving. Exit 0 when all is well, 1 with a message naming file and key (or the key setting) otherwise.
 */
public final class CheckCommand {
    private final PrintStream out;
    private final PrintStream err;

    public CheckCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        Path dir = Path.of(setting("cloakgate.tenants-dir", "config/tenants"));
        try {
            TenantRegistry tenants = TenantRegistry.load(dir,
                    new TenantParser(EnvExpander.ofSystem(), Path.of("").toAbsolutePath()));
            checkAuth(tenants);
            int sanitizing = new CloakingSetup().build(tenants, dir, new SimpleMeterRegistry(), Evidence.NONE).size();
            out.println("ok: detection self-check passed for " + sanitizing + " sanitizing tenant(s)");
            tenants.all().forEach((name, t) -> out.println("ok: tenant " + name + " (" + t.upstreams().size()
                    + " upstream(s), sha256 " + t.digest().substring(0, 16) + ")"));
            out.println(ledgerKey());
            out.println("check passed: " + tenants.all().size() + " tenant(s) in " + dir);
            return 0;
        } catch (TenantConfigException | SigningKeyException e) {
            err.println("check failed: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Issue 10: each tenant's credentials as the gateway would set them up (token files and JWKS files read; JWKS
     * URLs are not fetched here), and a warning for each tenant that asks agents for no credential.
     */
    private void checkAuth(TenantRegistry tenants) throws TenantConfigException {
        for (var t : tenants.all().values()) {
            try {
                dev.cloakgate.auth.TenantAuth.create(t.name(), t.auth(), Runnable::run, false, System::nanoTime).close();
            } catch (dev.cloakgate.auth.AuthSetupException e) {
                throw new TenantConfigException(t.name() + ".json", e.path(), e.getMessage());
            }
            if (t.auth().open()) {
                out.println("warning: tenant " + t.name() + " asks agents for no credential (\"auth\": {\"mode\": \"none\"}):"
                        + " anyone who reaches the port can use its upstreams");
            }
        }
    }

    /** The key the gateway would sign checkpoints with; a development key is reported, not generated here. */
    private static String ledgerKey() {
        LedgerKeySettings settings = LedgerKeySettings.fromEnvironment();
        if (settings.onlyDev()) {
            return "ok: ledger signing key: a development key (" + SigningKeys.DEV_PROPERTY + "=true)";
        }
        SigningKeys.Loaded key = settings.load(false);
        return "ok: ledger signing key " + key.signer().keyId().hex() + " from " + key.source();
    }

    /** A property as Quarkus would resolve it here: system property, then environment variable, then default. */
    static String setting(String property, String fallback) {
        String v = System.getProperty(property);
        if (v == null) {
            v = System.getenv(property.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        return v == null || v.isBlank() ? fallback : v;
    }
}
