package dev.cloakgate.tenant;

import java.nio.file.Path;
import java.time.Clock;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Applies what the {@link TenantWatcher} reports. A new or changed file is parsed and checked as at start, then
 * its components are built (detection and its self-check, policy, the ledger of a new tenant) by the
 * {@link Activation}; only when all of that succeeded does the registry swap it in, so new sessions get it whole
 * and existing sessions keep theirs. A file that fails anywhere is refused: whatever served before goes on
 * serving, the refusal is logged with the file and the JSON path, counted, and kept in the tenant's status. A
 * removed file stops the tenant taking new sessions.
 *
 * <p>Counted in {@code cloakgate_config_reloads_total{tenant,outcome}}, outcome {@code accepted}, {@code rejected}
 * or {@code removed}; a file whose name is no tenant name counts under tenant {@code ~invalid}.
 */
public final class TenantReloader implements TenantWatcher.Listener {
    private static final Logger LOG = Logger.getLogger(TenantReloader.class);

    /** Builds what a tenant's new sessions are made from and makes it theirs; the registry is told after. */
    public interface Activation {
        /** Builds and installs the components of {@code config}; refuses, naming file and JSON path, when it cannot. */
        void activate(TenantConfig config, String file) throws TenantConfigException;

        /** The tenant's file was removed: it takes no new sessions. */
        void removed(String tenant, String file);
    }

    private final TenantRegistry registry;
    private final TenantParser parser;
    private final Activation activation;
    private final MeterRegistry metrics;
    private final Clock clock;

    public TenantReloader(TenantRegistry registry, TenantParser parser, Activation activation, MeterRegistry metrics,
            Clock clock) {
        this.registry = registry;
        this.parser = parser;
        this.activation = activation;
        this.metrics = metrics;
        this.clock = clock;
        registry.all().keySet().forEach(this::zero);
    }

    /** Each outcome's counter exists from the tenant's first load, at 0, so a scrape shows it before any reload. */
    private void zero(String tenant) {
        for (String outcome : new String[] {"accepted", "rejected", "removed"}) {
            count(tenant, outcome, 0);
        }
    }

    @Override
    public void written(String tenant, Path file, byte[] bytes) {
        String f = file.toString();
        String digest = TenantParser.sha256(bytes);
        TenantStatus before = registry.status(tenant).orElse(null);
        if (before != null && registry.accepting(tenant) && digest.equals(before.digest())) {
            registry.unchanged(tenant); // a refused edit was undone: the file is again what serves
            LOG.infof("tenant %s: %s is again the configuration serving (sha256 %s)", tenant, f, shortDigest(digest));
            return;
        }
        try {
            TenantConfig config = parser.parse(tenant, f, bytes);
            activation.activate(config, f);
            registry.accepted(config, f, clock.instant());
            if (before == null || before.digest() == null) {
                zero(tenant); // a tenant added while running
            }
            count(tenant, "accepted");
            LOG.infof("tenant %s: configuration from %s (sha256 %s) accepted; new sessions use it%s", tenant, f,
                    shortDigest(digest), before == null || before.digest() == null ? ""
                            : ", sessions started before keep theirs until they end (the previous was sha256 "
                            + shortDigest(before.digest()) + ")");
        } catch (TenantConfigException e) {
            refused(tenant, f, e.path(), FileValues.removedFrom(problem(e), bytes), digest);
        } catch (RuntimeException e) {
            // a defect, not a bad file: still refused, so what served goes on serving
            LOG.debug("tenant reload failure", e);
            refused(tenant, f, "$", "could not be set up (" + e.getClass().getSimpleName() + "); the log at DEBUG has"
                    + " the stack", digest);
        }
    }

    @Override
    public void unreadable(String tenant, Path file, String why) {
        refused(tenant, file.toString(), "$", why, null);
    }

    @Override
    public void removed(String tenant, Path file) {
        if (!registry.accepting(tenant)) {
            registry.removed(tenant, clock.instant()); // a file never accepted: its status says it is gone
            return;
        }
        registry.removed(tenant, clock.instant());
        activation.removed(tenant, file.toString());
        count(tenant, "removed");
        LOG.warnf("tenant %s: %s was removed; the tenant takes no new sessions, its existing sessions go on until they"
                + " end", tenant, file);
    }

    @Override
    public void unusable(Path dir, String why) {
        LOG.warnf("tenants directory %s %s; every tenant keeps its configuration", dir, why);
    }

    private void refused(String tenant, String file, String path, String message, String digest) {
        registry.rejected(tenant, file, new TenantStatus.Rejection(file, path, message, digest, clock.instant()));
        count(tenant, "rejected");
        TenantStatus now = registry.status(tenant).orElseThrow();
        LOG.warnf("tenant %s: %s refused at %s: %s; %s", tenant, file, path, message, now.acceptingSessions()
                ? "still serving sha256 " + shortDigest(now.digest()) + " loaded at " + now.loadedAt()
                : "the tenant takes no sessions until its file is valid");
    }

    /** The parser's message without the file and path it begins with (they are reported apart). */
    private static String problem(TenantConfigException e) {
        String m = e.getMessage();
        String prefix = e.file() + ": " + e.path() + ": ";
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    private void count(String tenant, String outcome) {
        count(tenant, outcome, 1);
    }

    private void count(String tenant, String outcome, int n) {
        if (metrics != null) {
            metrics.counter("cloakgate.config.reloads", "tenant",
                    TenantParser.TENANT_NAME.matcher(tenant).matches() ? tenant : "~invalid", "outcome", outcome).increment(n);
        }
    }

    private static String shortDigest(String digest) {
        return digest == null ? "-" : digest.substring(0, Math.min(16, digest.length()));
    }
}
