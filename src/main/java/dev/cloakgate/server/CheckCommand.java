package dev.cloakgate.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.cloakgate.cloak.CloakingSetup;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.ledger.SigningKeyException;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.tenant.CommandLocator;
import dev.cloakgate.tenant.EnvExpander;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantConfigException;
import dev.cloakgate.tenant.TenantParser;
import dev.cloakgate.tenant.TenantRegistry;
import dev.cloakgate.tenant.UpstreamConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * {@code --check}: validates every tenant file, runs the detection self-check and reads the ledger signing key,
 * without serving. It reports every problem of every file, not the first (exit 1), and warns (exit unchanged) when
 * an stdio upstream's command will not be found when the gateway starts it. Exit 0 when all is well.
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
        Path cwd = Path.of("").toAbsolutePath();
        List<String> problems = new ArrayList<>();
        TenantRegistry.Read read;
        try {
            read = TenantRegistry.read(dir, new TenantParser(EnvExpander.ofSystem(), cwd));
        } catch (TenantConfigException e) {
            e.problems().forEach(p -> problems.add(p.toString()));
            read = null;
        }
        int tenants = 0;
        if (read != null) {
            read.problems().forEach(p -> problems.add(p.toString()));
            CommandLocator commands = new CommandLocator(System.getenv("PATH"), cwd);
            for (TenantConfig t : read.valid().all().values()) {
                try {
                    new CloakingSetup().build(TenantRegistry.of(t), dir, new SimpleMeterRegistry(), Evidence.NONE);
                } catch (TenantConfigException e) {
                    e.problems().forEach(p -> problems.add(p.toString()));
                    continue;
                }
                String auth = authProblem(t);
                if (auth != null) {
                    problems.add(auth);
                    continue;
                }
                // issue 11: the gate's documents read and bound as the gateway would (no store is opened here)
                if (t.gate() != null) {
                    try {
                        dev.cloakgate.gate.TenantGate g = dev.cloakgate.gate.TenantGate.load(t.name(), t.gate(),
                                t.name() + ".json", java.time.Clock.systemUTC(), null, null, null, Evidence.NONE);
                        g.checkUpstreams(t.upstreams().keySet(), t.name() + ".json");
                        out.println("ok: tenant " + t.name() + " gate: release " + g.releaseHash() + ", certification "
                                + g.certificationState());
                    } catch (TenantConfigException e) {
                        e.problems().forEach(p -> problems.add(p.toString()));
                        continue;
                    }
                }
                tenants++;
                out.println("ok: tenant " + t.name() + " (" + t.upstreams().size() + " upstream(s), sha256 "
                        + t.digest().substring(0, 16) + (t.sanitize() ? ", detection self-check passed" : "") + ")");
                for (UpstreamConfig u : t.upstreams().values()) {
                    String warning = u instanceof UpstreamConfig.Stdio s ? commands.warning(s) : null;
                    if (warning != null) {
                        out.println("warning: " + dir.resolve(t.name() + ".json") + ": $.upstreams." + u.name()
                                + ".command: " + warning);
                    }
                }
            }
        }
        try {
            out.println(ledgerKey());
        } catch (SigningKeyException e) {
            problems.add(e.getMessage());
        }
        // issue 17: where the state lives, as the start would decide it (the database itself is not contacted here)
        try {
            SharedDatabase.Kind kind = SharedDatabase.kind(setting("cloakgate.store", "sqlite"));
            SharedDatabase.agree(kind, setting("quarkus.datasource.jdbc.url", null) != null);
            out.println("ok: store " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + (kind == SharedDatabase.Kind.POSTGRESQL ? " (the database is not contacted by the check)" : ""));
        } catch (IllegalArgumentException | IllegalStateException e) {
            problems.add(e.getMessage());
        }
        // issue 17: cluster mode's settings and shared key, read as the gateway reads them
        try {
            java.util.Optional<dev.cloakgate.cluster.ClusterSettings> cluster = dev.cloakgate.cluster.ClusterSettings.of(
                    optional("cloakgate.cluster.replica-id"), optional("cloakgate.cluster.key-file"),
                    optional("cloakgate.cluster.peer-url"), optional("cloakgate.cluster.peers"));
            SharedDatabase.requireSharedInCluster(SharedDatabase.kind(setting("cloakgate.store", "sqlite")),
                    cluster.isPresent(), setting("cloakgate.ledger.log-identity", null) != null);
            cluster.ifPresent(c -> out.println("ok: cluster replica " + c.replicaId() + ", shared key read, "
                    + (c.template() == null ? c.peers().size() + " peer(s) listed" : "peers at " + c.template())));
        } catch (dev.cloakgate.cluster.ClusterSetupException | IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("error: " + p));
            err.println("check failed: " + problems.size() + " problem(s)" + (read == null ? ""
                    : "; " + tenants + " tenant file(s) valid in " + dir));
            return 1;
        }
        out.println("check passed: " + tenants + " tenant(s) in " + dir);
        return 0;
    }

    /**
     * Issue 10: the tenant's credentials as the gateway would set them up (token files and JWKS files read; JWKS
     * URLs are not fetched here), as a problem or null; a tenant that asks agents for no credential is warned of.
     */
    private String authProblem(TenantConfig t) {
        try {
            // issue 16: an OAuth tenant needs the public URL; the check reads it from the environment as the gateway would
            String publicUrl = PublicUrl.of(java.util.Optional.ofNullable(System.getenv("CLOAKGATE_PUBLIC_URL")))
                    .map(PublicUrl::value).orElse(null);
            // (the check authenticates nobody: a subject digest is needed in form only)
            dev.cloakgate.auth.TenantAuth.create(t.name(), t.auth(), Runnable::run, false, System::nanoTime, publicUrl,
                    text -> "0".repeat(64)).close();
        } catch (dev.cloakgate.auth.AuthSetupException e) {
            return new TenantConfigException(t.name() + ".json", e.path(), e.getMessage()).problems().get(0).toString();
        }
        if (t.auth().open()) {
            out.println("warning: tenant " + t.name() + " asks agents for no credential (\"auth\": {\"mode\": \"none\"}):"
                    + " anyone who reaches the port can use its upstreams");
        }
        return null;
    }

    /** The key the gateway would sign checkpoints with; a development key is reported, not generated here. */
    private static String ledgerKey() {
        LedgerKeySettings settings = LedgerKeySettings.fromEnvironment();
        settings.logIdentity().ifPresent(dev.cloakgate.ledger.LogIdentity::configured); // issue 15: as the gateway checks it
        if (settings.onlyDev()) {
            return "ok: ledger signing key: a development key (" + SigningKeys.DEV_PROPERTY + "=true)";
        }
        SigningKeys.Loaded key = settings.load(false);
        SigningKeys.loadPrevious(settings.previousFile(), key.key()); // issue 15: read as the gateway would
        return "ok: ledger signing key " + dev.cloakgate.crypto.SignerKeys.keyId(key.key().publicKey()) + " from " + key.source()
                + settings.logIdentity().map(id -> ", log identity " + id.strip()).orElse("");
    }

    private static java.util.Optional<String> optional(String property) {
        return java.util.Optional.ofNullable(setting(property, null));
    }

    /** A property as Quarkus would resolve it here: system property, then environment variable, then default. */
    /**
     * Issue 17: a command that reads a tenant's state from files (operations, pins) refuses in the PostgreSQL mode rather
     * than show or change files the gateway no longer uses: the admin API of any replica serves the shared state.
     * Returns the message to print, or null in the SQLite mode.
     */
    static String sharedStateRefusal(String command, String adminPath) {
        if (!"postgresql".equals(setting("cloakgate.store", "sqlite").strip())) {
            return null;
        }
        return "store_postgresql_use_admin_api: with cloakgate.store=postgresql the " + command + " state is in the shared"
                + " database, not under cloakgate.data-dir; use the admin API of any replica (" + adminPath + ")";
    }

    static String setting(String property, String fallback) {
        String v = System.getProperty(property);
        if (v == null) {
            v = System.getenv(property.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        return v == null || v.isBlank() ? fallback : v;
    }
}
