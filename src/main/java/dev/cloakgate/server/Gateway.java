package dev.cloakgate.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cloakgate.cloak.Cloaking;
import dev.cloakgate.cloak.CloakingSetup;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.evidence.Evidences;
import dev.cloakgate.evidence.ForwardedCalls;
import dev.cloakgate.evidence.LedgerEntries;
import dev.cloakgate.evidence.LedgerEvidence;
import dev.cloakgate.evidence.LoggedEvidence;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.policy.TenantSecret;
import dev.cloakgate.jsonrpc.JsonCodec;
import io.micrometer.core.instrument.MeterRegistry;
import dev.cloakgate.session.CallLog;
import dev.cloakgate.session.GatewaySettings;
import dev.cloakgate.session.SessionRegistry;
import dev.cloakgate.tenant.EnvExpander;
import dev.cloakgate.tenant.TenantConfigException;
import dev.cloakgate.tenant.TenantParser;
import dev.cloakgate.tenant.TenantRegistry;
import dev.cloakgate.upstream.HttpLink;
import dev.cloakgate.upstream.Links;
import dev.cloakgate.upstream.MessageLanes;
import io.quarkus.runtime.StartupEvent;

/**
 * Wires the plain-Java core from configuration: tenants, codecs, the shared HTTP client and threads, the
 * session registry. Startup fails, naming file and key, when a tenant file is invalid.
 */
@ApplicationScoped
public class Gateway {
    private static final Logger LOG = Logger.getLogger(Gateway.class);

    private final GatewayConfig config;
    private final MeterRegistry metrics;
    private final String version;
    private TenantRegistry tenants;
    private SessionRegistry sessions;
    private JsonCodec clientCodec;
    private ScheduledExecutorService timer;
    private ExecutorService writers;
    private ExecutorService messages;
    private ExecutorService largeMessages;
    private MessageLanes lanes;
    private final io.vertx.core.Vertx vertx;

    public Gateway(GatewayConfig config, io.vertx.core.Vertx vertx, MeterRegistry metrics,
            @ConfigProperty(name = "quarkus.application.version", defaultValue = "dev") String version) {
        this.config = config;
        this.metrics = metrics;
        this.vertx = vertx;
        this.version = version;
    }

    void start(@Observes StartupEvent event) throws TenantConfigException {
        init();
    }

    synchronized void init() throws TenantConfigException {
        if (sessions != null) {
            return;
        }
        Path dir = Path.of(config.tenantsDir());
        tenants = TenantRegistry.load(dir, new TenantParser(EnvExpander.ofSystem(), Path.of("").toAbsolutePath()));
        LOG.infof("loaded %d tenant(s) from %s: %s", tenants.all().size(), dir, String.join(", ", tenants.all().keySet()));
        // issue 10, identity: every tenant's credentials, before anything is served
        installAuth();
        Path data = Path.of(config.dataDir());
        ledgers = openLedgers(data);
        try {
            build(dir, data);
        } catch (TenantConfigException | RuntimeException e) {
            closeLedgers();
            throw e;
        }
    }

    // ---- issue 10, identity and roles (begin) ----
    private dev.cloakgate.auth.AuthRegistry auth;
    private final dev.cloakgate.auth.PrincipalMeter meter = new dev.cloakgate.auth.PrincipalMeter(System::nanoTime);

    /** Sets up each tenant's principals and issuers; a token or JWKS file that cannot be read stops the start. */
    private void installAuth() throws TenantConfigException {
        auth = new dev.cloakgate.auth.AuthRegistry(name -> tenants == null ? java.util.Optional.empty()
                : tenants.get(name).map(Gateway::authSource));
        for (var t : tenants.all().values()) {
            try {
                auth.install(authSource(t));
            } catch (dev.cloakgate.auth.AuthSetupException e) {
                auth.close();
                throw new TenantConfigException(t.name() + ".json", e.path(), e.getMessage());
            }
        }
    }

    /** What a tenant's credentials are set up from. */
    public static dev.cloakgate.auth.AuthRegistry.Source authSource(dev.cloakgate.tenant.TenantConfig t) {
        return new dev.cloakgate.auth.AuthRegistry.Source(t.name(), t.digest(), t.auth());
    }

    /** Who may do what on each tenant: the question every surface (MCP, ledger export, admin API) asks. */
    public dev.cloakgate.auth.AuthRegistry access() {
        return auth;
    }

    /** Per-principal limits (calls per minute, open sessions). */
    public dev.cloakgate.auth.PrincipalMeter meter() {
        return meter;
    }
    // ---- issue 10, identity and roles (end) ----

    /** One ledger per tenant, all signed by the one gateway key; refuses to start without a key or beside another gateway. */
    private Map<String, Ledger> openLedgers(Path data) {
        GatewayConfig.Ledger lc = config.ledger();
        SigningKeys.Loaded key = SigningKeys.load(lc.signingKeyFile().map(Path::of), lc.signingKey(), lc.devKey(), data);
        NoteSigner signer = key.signer();
        String pub = HexFormat.of().formatHex(key.key().publicKey().bytes());
        if (key.dev()) {
            LOG.warnf("ledger: checkpoints are signed with a DEVELOPMENT key (%s); in production set %s or env %s",
                    key.source(), SigningKeys.FILE_PROPERTY, SigningKeys.ENV);
        }
        // what an auditor pins: ledger verify FILE --trust-key KEYID=HEX
        LOG.infof("ledger: signing checkpoints as %s, trust key %s=%s", signer.name(), signer.keyId().hex(), pub);
        Ledger.Settings settings = Ledger.Settings.defaults().withCheckpointEvery(lc.checkpointEvery())
                .withCheckpointInterval(lc.checkpointInterval());
        Map<String, Ledger> open = new LinkedHashMap<>();
        try {
            for (String t : tenants.all().keySet()) {
                open.put(t, Ledger.open(data, t, signer, settings));
            }
        } catch (RuntimeException e) {
            open.values().forEach(Ledger::close);
            throw e;
        }
        LOG.infof("ledger open for %d tenant(s) under %s", open.size(), data.resolve("ledger"));
        for (Ledger l : open.values()) {
            metrics.gauge("cloakgate.ledger.entries", io.micrometer.core.instrument.Tags.of("tenant", l.tenant()), l, Ledger::size);
        }
        metrics.gauge("cloakgate.ledger.lost", this, Gateway::ledgerLost);
        return open;
    }

    private void build(Path dir, Path data) throws TenantConfigException {
        Map<String, LedgerEntries> mappings = new LinkedHashMap<>();
        Map<String, TenantSecret> secrets = new LinkedHashMap<>();
        for (String t : tenants.all().keySet()) {
            try {
                secrets.put(t, TenantSecret.load(data, t));
                mappings.put(t, new LedgerEntries(secrets.get(t)::sessionDigest));
            } catch (java.io.IOException e) {
                throw new TenantConfigException(t + ".json", "$", "cannot read or create the tenant secret under "
                        + data.resolve("keys") + ": " + e.getMessage());
            }
        }
        ledgerEvidence = new LedgerEvidence(ledgers, mappings);
        Evidence evidence = new Evidences(List.of(new LoggedEvidence(), ledgerEvidence));
        for (var t : tenants.all().values()) {
            evidence.record(new Event.ConfigLoaded(t.name(), t.name() + ".json", t.digest()));
        }
        Map<String, Cloaking> cloakings = new CloakingSetup().build(tenants, dir, metrics, evidence);
        LOG.infof("cloaking on for %d tenant(s), detection self-check passed", cloakings.size());

        GatewayConfig.Upstream up = config.upstream();
        GatewayConfig.Session se = config.session();
        clientCodec = new JsonCodec(new JsonCodec.Limits(config.http().maxDepth(), config.http().maxBodyBytes()));
        JsonCodec upstreamCodec = new JsonCodec(new JsonCodec.Limits(up.maxDepth(), up.maxMessageBytes()));
        timer = Executors.newScheduledThreadPool(2, daemon("cloakgate-timer"));
        writers = Executors.newCachedThreadPool(daemon("cloakgate-stdio-writer"));
        // messages are parsed, judged and cloaked here, never on an event loop; large ones on a few threads only
        messages = Executors.newFixedThreadPool(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()),
                daemon("cloakgate-messages"));
        largeMessages = Executors.newFixedThreadPool(Math.max(1, up.largeMessageWorkers()),
                daemon("cloakgate-large-messages"));
        lanes = new MessageLanes(messages, largeMessages, up.largeMessageBytes());
        GatewaySettings settings = new GatewaySettings(version, up.initializeTimeout(), up.requestTimeout(),
                up.connectTimeout(), se.idleTimeout(), up.idleTimeout(), up.backoffInitial(), up.backoffMax(),
                se.bufferEvents(), se.bufferBytes(), clientCodec.limits(), upstreamCodec.limits(), se.maxSessions(),
                se.maxQueuedBytes(), se.maxSessionsPerTenant(), up.maxStdioChildrenPerTenant(), se.streamlessIdleTimeout());
        Links links = new Links(upstreamCodec, vertx, writers,
                new HttpLink.Timeouts(up.connectTimeout(), up.requestTimeout()), se.maxSessions() + 1000, lanes);
        policies = new java.util.LinkedHashMap<>();
        for (var t : tenants.all().values()) {
            if (t.policy() != null) {
                try {
                    policies.put(t.name(), dev.cloakgate.policy.Policy.create(t.name(), List.copyOf(t.upstreams().keySet()),
                            t.policy(), data, metrics, new dev.cloakgate.policy.control.StandardControls(), evidence,
                            secrets.get(t.name())));
                } catch (java.io.IOException e) {
                    throw new TenantConfigException(t.name() + ".json", "$.policy", "cannot set up the policy's state under "
                            + config.dataDir() + ": " + e.getMessage());
                }
            }
        }
        LOG.infof("policy on for %d tenant(s)", policies.size());
        Map<String, CallLog> calls = new LinkedHashMap<>();
        secrets.forEach((t, secret) -> calls.put(t, new ForwardedCalls(t, secret, evidence)));
        sessions = new SessionRegistry(settings, upstreamCodec, links, timer, cloakings::get, policies::get,
                name -> calls.getOrDefault(name, CallLog.NONE));
        // ---- issue 10, upstream health: a gauge and counters per tenant upstream, read from the plain-Java board ----
        sessions.health().onNew(this::healthMetrics);
        for (var t : tenants.all().values()) {
            t.upstreams().keySet().forEach(u -> sessions.health().of(t.name(), u));
        }
        // ---- end of issue 10, upstream health ----
        // ---- issue 10, process economy: what each tenant holds of the gateway ----
        for (var t : tenants.all().values()) {
            io.micrometer.core.instrument.Tags tags = io.micrometer.core.instrument.Tags.of("tenant", t.name());
            io.micrometer.core.instrument.Gauge.builder("cloakgate.tenant.sessions.held", sessions,
                    r -> r.held(t.name()).sessions()).tags(tags).register(metrics);
            io.micrometer.core.instrument.Gauge.builder("cloakgate.tenant.stdio.children", sessions,
                    r -> r.held(t.name()).stdioChildren()).tags(tags).register(metrics);
        }
        // ---- end of issue 10, process economy ----
        long sweep = Math.max(1000, Math.min(30_000, Math.min(se.idleTimeout().toMillis(),
                se.streamlessIdleTimeout().toMillis()) / 4));
        timer.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
    }

    /** Issue 10: {@code cloakgate_upstream_up}, {@code _restarts_total}, {@code _failures_total{reason}}. */
    private void healthMetrics(dev.cloakgate.upstream.UpstreamHealth h) {
        io.micrometer.core.instrument.Tags tags = io.micrometer.core.instrument.Tags.of("tenant", h.tenant(), "upstream",
                h.upstream());
        io.micrometer.core.instrument.Gauge.builder("cloakgate.upstream.up", h,
                dev.cloakgate.upstream.UpstreamHealth::upValue).tags(tags).register(metrics);
        io.micrometer.core.instrument.FunctionCounter.builder("cloakgate.upstream.restarts", h,
                dev.cloakgate.upstream.UpstreamHealth::restarts).tags(tags).register(metrics);
        for (var reason : dev.cloakgate.upstream.UpstreamException.Reason.values()) {
            io.micrometer.core.instrument.FunctionCounter.builder("cloakgate.upstream.failures", h, x -> x.failures(reason))
                    .tags(tags.and("reason", reason.code())).register(metrics);
        }
    }

    /** Issue 10: an initialize refused at a limit, counted by tenant and the limit's code. */
    public void sessionRefused(String tenant, String reason) {
        metrics.counter("cloakgate.sessions.refused", "tenant", tenant, "reason", reason).increment();
    }

    private void sweep() {
        try {
            sessions.sweep();
        } catch (RuntimeException e) {
            LOG.warn("session sweep failed", e);
        }
    }

    @PreDestroy
    void stop() {
        if (sessions != null) {
            sessions.closeAll();
        }
        if (policies != null) {
            policies.values().forEach(dev.cloakgate.policy.Policy::close);
        }
        // last: sessions and policies may still record while closing; this flushes and signs a final checkpoint
        closeLedgers();
        if (auth != null) {
            auth.close();
        }
        if (timer != null) {
            timer.shutdownNow();
        }
        if (writers != null) {
            writers.shutdown();
        }
        if (messages != null) {
            messages.shutdown();
            largeMessages.shutdown();
        }
    }

    private Map<String, dev.cloakgate.policy.Policy> policies;
    private Map<String, Ledger> ledgers = Map.of();
    private LedgerEvidence ledgerEvidence;

    private synchronized void closeLedgers() {
        for (Ledger l : ledgers.values()) {
            try {
                l.close();
            } catch (RuntimeException e) {
                LOG.errorf("ledger of tenant %s did not close cleanly: %s", l.tenant(), e.getMessage());
            }
        }
        ledgers = Map.of();
    }

    /** The tenant's open ledger, or null. */
    public Ledger ledger(String tenant) {
        return ledgers.get(tenant);
    }

    /** Entries the ledgers could not take since start (0 unless the disk failed or stalled). */
    public long ledgerLost() {
        return ledgerEvidence == null ? 0 : ledgerEvidence.lost();
    }

    public TenantRegistry tenants() {
        return tenants;
    }

    public SessionRegistry sessions() {
        return sessions;
    }

    public JsonCodec clientCodec() {
        return clientCodec;
    }

    public GatewayConfig config() {
        return config;
    }

    /** Where messages are handled off the event loop, by size. */
    public MessageLanes lanes() {
        return lanes;
    }

    public Duration keepAlive() {
        return config.http().keepAlive();
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
