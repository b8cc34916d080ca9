package dev.cloakgate.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import java.time.Clock;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.evidence.Evidences;
import dev.cloakgate.evidence.LedgerEvidence;
import dev.cloakgate.evidence.LoggedEvidence;
import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.jsonrpc.JsonCodec;
import io.micrometer.core.instrument.MeterRegistry;
import dev.cloakgate.session.CallLog;
import dev.cloakgate.session.GatewaySettings;
import dev.cloakgate.session.SessionRegistry;
import dev.cloakgate.tenant.EnvExpander;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantConfigException;
import dev.cloakgate.tenant.TenantParser;
import dev.cloakgate.tenant.TenantRegistry;
import dev.cloakgate.tenant.TenantReloader;
import dev.cloakgate.tenant.TenantWatcher;
import dev.cloakgate.upstream.HttpLink;
import dev.cloakgate.upstream.Links;
import dev.cloakgate.upstream.MessageLanes;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Wires the plain-Java core from configuration: tenants, codecs, the shared HTTP client and threads, the
 * session registry. Startup fails, naming file and key, when a tenant file is invalid. While running, the tenants
 * directory is watched and changed files reloaded ({@link TenantReloader}); on SIGTERM the gateway drains
 * ({@link #drain}) before it closes.
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
    /** Issue 17: the database replicas share (empty in the SQLite default). */
    private final SharedDatabase shared;

    public Gateway(GatewayConfig config, io.vertx.core.Vertx vertx, MeterRegistry metrics, SharedDatabase shared,
            @ConfigProperty(name = "quarkus.application.version", defaultValue = "dev") String version) {
        this.config = config;
        this.shared = shared;
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
        // issue 17: cloakgate.store and the datasource agree (or the start stops) before any state is opened
        LOG.infof("store: %s", shared.kind().name().toLowerCase(java.util.Locale.ROOT));
        Path dir = Path.of(config.tenantsDir());
        TenantParser parser = new TenantParser(EnvExpander.ofSystem(), Path.of("").toAbsolutePath());
        tenants = TenantRegistry.load(dir, parser);
        LOG.infof("loaded %d tenant(s) from %s: %s", tenants.all().size(), dir, String.join(", ", tenants.all().keySet()));
        // issue 10, identity: every tenant's credentials, before anything is served
        installAuth();
        Path data = Path.of(config.dataDir());
        dev.cloakgate.ledger.LedgerKeyring signer = keyring(data);
        build();
        ledgerEvidence = new LedgerEvidence(Map.of(), Map.of());
        Evidence evidence = new Evidences(List.of(new LoggedEvidence(), ledgerEvidence));
        this.evidence = evidence;
        GatewayConfig.Ledger lc = config.ledger();
        stateStores = sharedStores.open(data); // issue 17, shared stores
        assembly = new TenantAssembly(data, stateStores, signer, Ledger.Settings.defaults().withCheckpointEvery(lc.checkpointEvery())
                .withCheckpointInterval(lc.checkpointInterval()).withDevKey(ledgerKeyIsDev), metrics, ledgerEvidence, evidence, sessions, auth,
                upstreamMeters);
        metrics.gauge("cloakgate.ledger.lost", this, Gateway::ledgerLost);
        assembly.witnessing(witnessing(lc)); // issue 15
        assembly.sharedLedgers(shared.dataSource()); // issue 17, pg-ledger: one log per tenant in PostgreSQL
        assembly.replicaShare(sharedStores.share()); // issue 17: tenant-wide limits as this replica's share
        try {
            for (TenantConfig t : tenants.all().values()) {
                assembly.activate(t, dir.resolve(t.name() + ".json").toString());
            }
        } catch (TenantConfigException | RuntimeException e) {
            assembly.close();
            stateStores.close(); // issue 17
            auth.close();
            throw e;
        }
        LOG.infof("ledger open for %d tenant(s) under %s; detection self-check passed", assembly.ledgers(),
                data.resolve("ledger"));
        // ---- issue 10: live tenant configuration ----
        GatewayConfig.Reload rc = config.reload();
        if (rc.enabled()) {
            Map<String, String> known = new LinkedHashMap<>();
            tenants.all().forEach((name, t) -> known.put(name, t.digest()));
            watcher = new TenantWatcher(dir, known, rc.debounce(), rc.rescanInterval(),
                    new TenantReloader(tenants, parser, assembly, metrics, Clock.systemUTC()));
            watcher.start();
            LOG.infof("watching %s for tenant file changes (debounce %d ms, rescan every %d s)", dir,
                    rc.debounce().toMillis(), rc.rescanInterval().toSeconds());
        }
    }

    // ---- issue 10, identity and roles (begin) ----
    private dev.cloakgate.auth.AuthRegistry auth;
    private final dev.cloakgate.auth.PrincipalMeter meter = new dev.cloakgate.auth.PrincipalMeter(System::nanoTime);

    /**
     * The registry of each tenant's principals and issuers. They are installed by the {@link TenantAssembly} with
     * the rest of each accepted configuration, at start and at each reload (a token or JWKS file that cannot be read
     * stops the start, or refuses the reload). A tenant whose file was removed keeps its last credentials: its
     * existing sessions go on, and its auditors can still export its ledger.
     */
    private void installAuth() {
        auth = new dev.cloakgate.auth.AuthRegistry(name -> tenants == null ? java.util.Optional.empty()
                : tenants.lastAccepted(name).map(Gateway::authSource),
                PublicUrl.of(config.publicUrl()).map(PublicUrl::value).orElse(null), // issue 16: OAuth resources
                this::subjectDigest);
    }

    /**
     * Issue 16: how an OAuth tenant names its subjects: HMAC under the tenant's secret (the one its ledger's payload
     * digests use), so no record holds a subject or a plain hash of it; null when the secret cannot be read.
     */
    private java.util.function.UnaryOperator<String> subjectDigest(String tenant) {
        try {
            dev.cloakgate.policy.TenantSecret secret = stateStores.secret(tenant); // issue 17: shared with the replicas
            return secret::hmac;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
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


    // ---- issue 15, witness cosigning ----
    private static final String WITNESSES = "cloakgate.ledger.witnesses";

    private dev.cloakgate.ledger.witness.Witnessing witnessing(GatewayConfig.Ledger lc) {
        List<dev.cloakgate.ledger.witness.WitnessEndpoint> ws;
        try {
            ws = dev.cloakgate.ledger.witness.WitnessEndpoint.parseAll(lc.witnesses().orElse(List.of()), WITNESSES);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ledger_witness_invalid: " + e.getMessage());
        }
        for (dev.cloakgate.ledger.witness.WitnessEndpoint w : ws) {
            LOG.infof("ledger: checkpoints go to witness %s at %s", w.id(), w.addCheckpoint());
        }
        witnessTimeout = lc.witnessTimeout();
        return new dev.cloakgate.ledger.witness.Witnessing(ws, lc.witnessTimeout(), java.time.Duration.ofSeconds(1));
    }

    private java.time.Duration witnessTimeout = java.time.Duration.ZERO;

    /** How long an export waits for the witnesses to answer for its checkpoint (their request timeout). */
    public java.time.Duration witnessTimeout() {
        return witnessTimeout;
    }
    // ---- end issue 15 ----


    /**
     * The master key every tenant's ledger keys derive from, the log identity and a previous key if configured;
     * refuses to start without a key or with an invalid identity. Each ledger logs its own verifier keys as it opens.
     */
    private boolean ledgerKeyIsDev;

    private dev.cloakgate.ledger.LedgerKeyring keyring(Path data) {
        GatewayConfig.Ledger lc = config.ledger();
        SigningKeys.Loaded key = SigningKeys.load(lc.signingKeyFile().map(Path::of), lc.signingKey(), lc.devKey(), data);
        ledgerKeyIsDev = key.dev(); // issue 17, pg-ledger: a dev key is one replica's own
        if (key.dev()) {
            LOG.warnf("ledger: checkpoints are signed with a DEVELOPMENT key (%s); in production set %s or env %s",
                    key.source(), SigningKeys.FILE_PROPERTY, SigningKeys.ENV);
        }
        dev.cloakgate.ledger.LogIdentity identity = dev.cloakgate.ledger.LogIdentity.resolve(lc.logIdentity(), data);
        if (identity.generated()) {
            LOG.warnf("ledger: no log identity configured; using %s, generated once under %s. Set %s (env %s) to the"
                    + " gateway's external host name, e.g. gateway.acme.example, before the first ledger is created",
                    identity.value(), data, dev.cloakgate.ledger.LogIdentity.PROPERTY, dev.cloakgate.ledger.LogIdentity.ENV);
        }
        java.util.Optional<dev.cloakgate.crypto.Ed25519SigningKey> previous = SigningKeys.loadPrevious(
                lc.previousSigningKeyFile().map(Path::of), key.key());
        LOG.infof("ledger: log identity %s; ledger keys derived from the signing key (%s)%s", identity.value(), key.source(),
                previous.isPresent() ? "; previous key configured, to endorse the rotation" : "");
        return new dev.cloakgate.ledger.LedgerKeyring(key.key(), previous, identity);
    }

    /** Codecs, threads, the upstream links and the session registry: what does not depend on any one tenant. */
    private void build() {
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
                se.maxQueuedBytes(), sharedStores.share().of(se.maxSessionsPerTenant()), // issue 17: a replica's share
                sharedStores.share().of(up.maxStdioChildrenPerTenant()), se.streamlessIdleTimeout());
        // issue 17: the cluster settings (replica id, shared key, peers), before anything that depends on them
        GatewayConfig.Cluster cc = config.cluster();
        cluster = dev.cloakgate.cluster.ClusterSettings.of(cc.replicaId(), cc.keyFile(), cc.peerUrl(), cc.peers())
                .orElse(null);
        SharedDatabase.requireSharedInCluster(shared.kind(), cluster != null,
                config.ledger().logIdentity().filter(id -> !id.isBlank()).isPresent());
        // issue 16: a configured store key that cannot be read stops the start (upstream_oauth_key_invalid)
        config.upstreamOauth().keyFile().ifPresent(f -> dev.cloakgate.upstream.oauth.StoreKey.read(Path.of(f)));
        config.upstreamOauth().previousKeyFile().ifPresent(f -> dev.cloakgate.upstream.oauth.StoreKey.read(Path.of(f)));
        // issue 16, upstream OAuth: one OAuth client per tenant upstream with an oauth block; each token obtained is
        // a ledger entry (never the token)
        authorizers = new dev.cloakgate.upstream.oauth.UpstreamAuthorizers(
                PublicUrl.of(config.publicUrl()).map(p -> java.net.URI.create(p.value())).orElse(null), up.connectTimeout(),
                (s, grant, scope, expiresAt, issuer) -> {
                    Evidence e = this.evidence;
                    if (e != null) {
                        e.record(new dev.cloakgate.evidence.Event.UpstreamTokenObtained(s.tenant(), s.upstream(), grant,
                                scope, expiresAt, issuer.toString()));
                    }
                }, java.time.Clock.systemUTC(), () -> {
                    Path data = Path.of(config.dataDir());
                    GatewayConfig.UpstreamOauth uo = config.upstreamOauth();
                    // issue 17: replicas must seal with one key: the configured file, else one derived from the
                    // cluster key; a generated key serves one process only
                    javax.crypto.SecretKey key = uo.keyFile().map(f -> dev.cloakgate.upstream.oauth.StoreKey.read(Path.of(f)))
                            .orElseGet(() -> cluster != null
                                    ? new javax.crypto.spec.SecretKeySpec(
                                            cluster.key().subkey(dev.cloakgate.cluster.ClusterKey.UPSTREAM_OAUTH), "AES")
                                    : dev.cloakgate.upstream.oauth.StoreKey.generatedUnder(data));
                    // issue 17: with the shared database, a connection made through one replica serves every replica
                    dev.cloakgate.upstream.oauth.ConnectionBlobs blobs = shared.dataSource()
                            .<dev.cloakgate.upstream.oauth.ConnectionBlobs>map(dev.cloakgate.upstream.oauth.PostgresConnectionBlobs::new)
                            .orElseGet(() -> new dev.cloakgate.upstream.oauth.FileConnectionBlobs(data.resolve("upstream-oauth")));
                    return new dev.cloakgate.upstream.oauth.TokenStore(blobs, key,
                            uo.previousKeyFile().map(f -> dev.cloakgate.upstream.oauth.StoreKey.read(Path.of(f))).orElse(null));
                }, cluster == null ? null : cluster.replicaId());
        Links links = new Links(upstreamCodec, vertx, writers,
                new HttpLink.Timeouts(up.connectTimeout(), up.requestTimeout()), se.maxSessions() + 1000, lanes,
                authorizers);
        // issue 10, metrics: requests, starts and failures of every upstream, by a decorator on the links
        upstreamMeters = new UpstreamMeters(links, metrics);
        // each tenant's setup is installed by the assembly, at start and at each reload of its file
        sessions = new SessionRegistry(settings, upstreamCodec, upstreamMeters, timer, name -> null, name -> null,
                name -> CallLog.NONE);
        // ---- issue 17: in cluster mode a session's id names its owner, encrypted under the shared key ----
        router = new dev.cloakgate.cluster.SessionRouter(cluster);
        if (cluster != null) {
            sessions.issueIdsWith(router::issue);
            LOG.infof("cluster mode: replica %s, %s", cluster.replicaId(), cluster);
        }
        // ---- end issue 17 ----
        // issue 10, upstream health: a gauge per tenant upstream, read from the plain-Java board (the assembly makes
        // each configured upstream's entry when its tenant is loaded)
        sessions.health().onNew(this::healthMetrics);
        long sweep = Math.max(1000, Math.min(30_000, Math.min(se.idleTimeout().toMillis(),
                se.streamlessIdleTimeout().toMillis()) / 4));
        timer.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
    }

    /**
     * Issue 10: {@code cloakgate_upstream_up}. Starts, restarts and failures are counted where links are made
     * ({@link UpstreamMeters}), with the phase a failure happened in.
     */
    private void healthMetrics(dev.cloakgate.upstream.UpstreamHealth h) {
        io.micrometer.core.instrument.Gauge.builder("cloakgate.upstream.up", h,
                dev.cloakgate.upstream.UpstreamHealth::upValue).tags("tenant", h.tenant(), "upstream", h.upstream())
                .register(metrics);
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

    // ---- issue 10: graceful drain ----

    /** Quarkus' pre-shutdown phase (SIGTERM), while the HTTP server still serves: the drain runs here. */
    void shuttingDown(@Observes ShutdownDelayInitiatedEvent event) {
        drain();
    }

    /**
     * Readiness goes down and new sessions are refused ({@code shutting_down}); calls in flight get up to
     * {@code cloakgate.shutdown.drain-timeout} to be answered, and existing sessions are served meanwhile. Calls
     * still waiting then are answered {@code shutting_down} (their upstreams are told they are cancelled), and
     * every session is closed: its streams end, its stdio children are stopped. The ledgers' final checkpoints
     * follow in {@link #stop}.
     */
    void drain() {
        if (!drain.begin()) {
            return;
        }
        if (watcher != null) {
            watcher.close();
        }
        if (sessions == null) {
            return;
        }
        Duration timeout = config.shutdown().drainTimeout();
        LOG.infof("shutting down: not ready, new sessions refused; %d request(s) in flight get up to %d s",
                drain.inFlight(), timeout.toSeconds());
        try {
            if (!drain.awaitIdle(timeout)) {
                int n = sessions.abandonInFlight(RpcError.of(ErrorCodes.INTERNAL_ERROR, "shutting_down",
                        "the gateway shut down before the upstream answered; the call may or may not have taken effect"),
                        (session, method, upstream) -> {
                            // the hook where an operations store records a call in flight as unknown (a later issue)
                        });
                LOG.warnf("shutting down: %d call(s) unanswered after %d s were answered shutting_down", n,
                        timeout.toSeconds());
                drain.awaitIdle(ABANDON_GRACE); // their answers are written
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
        sessions.closeAll();
        stopped(children);
        LOG.info("shutting down: sessions closed, upstreams stopped");
    }

    /**
     * Waits for the gateway's child processes (stdio upstreams and what their launchers started) to exit once
     * their sessions closed them (stdin closed, then SIGTERM, then SIGKILL, a few seconds apart), and kills what
     * is left after {@link #CHILDREN_GRACE}: the JVM's exit must not leave an upstream running.
     */
    private static void stopped(List<ProcessHandle> children) {
        long end = System.nanoTime() + CHILDREN_GRACE.toNanos();
        for (ProcessHandle p : children) {
            long left = end - System.nanoTime();
            try {
                if (left > 0) {
                    p.onExit().get(left, TimeUnit.NANOSECONDS);
                }
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // killed below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        int left = 0;
        for (ProcessHandle p : children) {
            if (p.isAlive()) {
                p.destroyForcibly();
                left++;
            }
        }
        if (left > 0) {
            LOG.warnf("shutting down: %d upstream process(es) still running after %d s were killed", left,
                    CHILDREN_GRACE.toSeconds());
        }
    }

    /** Longer than a stdio link's close takes (stdin, then 2 s to SIGTERM, then 2 s to SIGKILL). */
    private static final Duration CHILDREN_GRACE = Duration.ofSeconds(6);

    /** How long answers to abandoned calls get to be written before the sessions close. */
    private static final Duration ABANDON_GRACE = Duration.ofSeconds(2);

    /** Whether the gateway is shutting down (readiness down, new sessions refused). */
    public boolean draining() {
        return drain.draining();
    }

    Drain drainState() {
        return drain;
    }

    private final Drain drain = new Drain();
    private TenantWatcher watcher;
    // ---- end issue 10 ----

    // ---- issue 17, pg-ledger ----
    /**
     * In PostgreSQL mode the ledgers flush and sign their final checkpoints here, while the datasource's pool is still
     * open: {@link #stop} runs as beans are destroyed, in no order relative to the pool's own destruction.
     */
    void closeSharedState(@Observes io.quarkus.runtime.ShutdownEvent event) {
        if (shared.dataSource().isEmpty()) {
            return;
        }
        if (sessions != null) {
            sessions.closeAll();
        }
        if (assembly != null) {
            assembly.close();
        }
    }
    // ---- end issue 17, pg-ledger ----

    @PreDestroy
    void stop() {
        if (watcher != null) {
            watcher.close();
        }
        if (sessions != null) {
            sessions.closeAll();
        }
        // last: sessions may still record while closing; this flushes and signs each ledger's final checkpoint
        if (assembly != null) {
            assembly.close();
        }
        if (stateStores != null) {
            stateStores.close(); // issue 17: the heartbeat stops with the stores it kept alive
        }
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

    private TenantAssembly assembly;
    private LedgerEvidence ledgerEvidence;
    // ---- issue 17, shared stores ----
    @jakarta.inject.Inject
    SharedStores sharedStores;
    private dev.cloakgate.store.StateStores stateStores;

    /** Where every tenant's lasting state is kept (files, or the database the replicas share). */
    public dev.cloakgate.store.StateStores stateStores() {
        return stateStores;
    }
    // ---- end issue 17, shared stores ----
    private Evidence evidence;

    /** Where the gateway's own decisions are recorded (the log and each tenant's ledger). */
    public Evidence evidence() {
        return evidence;
    }
    private UpstreamMeters upstreamMeters;

    /** The tenant's open ledger, or null. */
    public Ledger ledger(String tenant) {
        return assembly == null ? null : assembly.ledger(tenant);
    }

    // ---- issue 11: the action gate, for the admin API ----

    /** The tenant's gate stores (operations, approvals), or null when no version of its file had a gate block. */
    public dev.cloakgate.gate.GateStores gateStores(String tenant) {
        return assembly == null ? null : assembly.gateStores(tenant);
    }

    /** The gate of the tenant's version serving new sessions, or null when that version has no gate block. */
    public dev.cloakgate.gate.TenantGate gate(String tenant) {
        return assembly == null ? null : assembly.gate(tenant);
    }

    // ---- end issue 11 ----

    /** Entries the ledgers could not take since start (0 unless the disk failed or stalled). */
    public long ledgerLost() {
        return ledgerEvidence == null ? 0 : ledgerEvidence.lost();
    }

    /** Issue 16: the OAuth clients of upstreams with an oauth block. */
    public dev.cloakgate.upstream.oauth.UpstreamAuthorizers authorizers() {
        return authorizers;
    }

    private dev.cloakgate.upstream.oauth.UpstreamAuthorizers authorizers;

    public TenantRegistry tenants() {
        return tenants;
    }

    // ---- issue 17 ----
    private dev.cloakgate.cluster.ClusterSettings cluster;
    private dev.cloakgate.cluster.SessionRouter router;

    /** Cluster mode's settings, or null when the gateway runs as one process. */
    public dev.cloakgate.cluster.ClusterSettings cluster() {
        return cluster;
    }

    /** Where a request for a session is served: here, at its owner, or nowhere (404). */
    public dev.cloakgate.cluster.SessionRouter router() {
        return router;
    }
    // ---- end issue 17 ----

    public SessionRegistry sessions() {
        return sessions;
    }

    public JsonCodec clientCodec() {
        return clientCodec;
    }

    /** Issue 17: the shared database, for the stores that live there in {@code postgresql} mode. */
    public SharedDatabase shared() {
        return shared;
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
