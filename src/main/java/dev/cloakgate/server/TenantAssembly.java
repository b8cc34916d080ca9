package dev.cloakgate.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import dev.cloakgate.auth.AuthRegistry;
import dev.cloakgate.auth.AuthSetupException;
import dev.cloakgate.cloak.Cloaking;
import dev.cloakgate.cloak.CloakingSetup;
import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.evidence.ForwardedCalls;
import dev.cloakgate.evidence.LedgerEntries;
import dev.cloakgate.evidence.LedgerEvidence;
import dev.cloakgate.gate.GateStores;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.LedgerKeyring;
import dev.cloakgate.ledger.PostgresLedgerStore;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.policy.PolicyState;
import dev.cloakgate.policy.TenantSecret;
import dev.cloakgate.policy.control.StandardControls;
import dev.cloakgate.session.CallLog;
import dev.cloakgate.session.SessionRegistry;
import dev.cloakgate.session.TenantSetup;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantConfigException;
import dev.cloakgate.tenant.TenantReloader;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Builds each tenant's {@link TenantSetup} from its configuration, at start and at every reload of its file, and
 * keeps what a tenant holds for as long as the gateway runs whatever its file says: its ledger (one open ledger,
 * one chain, across reloads), its secret, its policy's pins, decision trace and tenant-wide budget counts
 * ({@link PolicyState}), and the token shapes its upstreams declared. What the file configures (upstreams,
 * detection and its self-check, cloaking, the policy's controls and limits) is built anew from each accepted
 * version; sessions keep the setup they were created with. The tenant's credentials (its {@code auth} block) are
 * installed with each accepted version and checked on every request, so a token removed from the file is refused
 * at once; a session stays bound to the principal that opened it.
 *
 * <p>Evidence of an accepted configuration: {@code config_loaded} (the file's digest), then {@code self_check} for
 * a sanitizing tenant. A refused one leaves a {@code self_check} only when its detection failed the check.
 */
final class TenantAssembly implements TenantReloader.Activation, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(TenantAssembly.class);

    private final Path data;
    /** Issue 17: where each tenant's lasting state is kept (files, or the database the replicas share). */
    private final dev.cloakgate.store.StateStores stores;
    private final LedgerKeyring signer;
    private final Ledger.Settings ledgerSettings;
    private final MeterRegistry metrics;
    private final LedgerEvidence ledgerEvidence;
    private final Evidence evidence;
    private final SessionRegistry sessions;
    private final AuthRegistry auth;
    private final UpstreamMeters upstreamMeters;
    private final CloakingSetup cloakings = new CloakingSetup();
    private final StandardControls controls = new StandardControls();
    private final Map<String, Lasting> lasting = new ConcurrentHashMap<>();
    // ---- issue 15, witness cosigning: set before the first tenant is activated ----
    private dev.cloakgate.ledger.witness.Witnessing witnessing = new dev.cloakgate.ledger.witness.Witnessing(List.of(),
            java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(1));

    void witnessing(dev.cloakgate.ledger.witness.Witnessing w) {
        witnessing.close();
        witnessing = w;
    }
    // ---- end issue 15 ----
    // ---- issue 17: a replica's share of the limits over many sessions (cloakgate.cluster.replicas) ----
    private dev.cloakgate.tenant.ReplicaShare share = dev.cloakgate.tenant.ReplicaShare.ONE;

    void replicaShare(dev.cloakgate.tenant.ReplicaShare s) {
        share = s;
    }
    // ---- end issue 17 ----

    /** One tenant's state for the life of the process. */
    private static final class Lasting {
        final Ledger ledger;
        final TenantSecret secret;
        final CallLog calls;
        final LedgerEntries entries;
        PolicyState policy;
        Cloaking cloaking;
        /** Issue 11: the gate's stores and the worker their blocking work runs on, opened with the first gate block. */
        GateStores gate;
        /** Issue 11, admin API: the gate of the version serving new sessions (null when it has no gate block). */
        volatile TenantGate currentGate;

        Lasting(Ledger ledger, TenantSecret secret, CallLog calls, LedgerEntries entries) {
            this.ledger = ledger;
            this.secret = secret;
            this.calls = calls;
            this.entries = entries;
        }
    }

    TenantAssembly(Path data, dev.cloakgate.store.StateStores stores, LedgerKeyring signer, Ledger.Settings ledgerSettings, MeterRegistry metrics,
            LedgerEvidence ledgerEvidence, Evidence evidence, SessionRegistry sessions, AuthRegistry auth,
            UpstreamMeters upstreamMeters) {
        this.upstreamMeters = upstreamMeters;
        this.data = data;
        this.stores = stores;
        this.signer = signer;
        this.ledgerSettings = ledgerSettings;
        this.metrics = metrics;
        this.ledgerEvidence = ledgerEvidence;
        this.evidence = evidence;
        this.sessions = sessions;
        this.auth = auth;
    }

    // ---- issue 17, pg-ledger: every tenant's ledger in the shared database (empty: SQLite under the data dir) ----
    private java.util.Optional<javax.sql.DataSource> sharedLedgers = java.util.Optional.empty();

    void sharedLedgers(java.util.Optional<javax.sql.DataSource> db) {
        sharedLedgers = db;
    }
    // ---- end issue 17, pg-ledger ----

    @Override
    public synchronized void activate(TenantConfig accepted, String file) throws TenantConfigException {
        TenantConfig config = share.apply(accepted); // issue 17: each limit over many sessions as this replica's share
        String name = config.name();
        Lasting l = lasting(name, file);
        CloakingSetup.Checked checked = null;
        Cloaking cloaking = null;
        if (config.sanitize()) {
            checked = cloakings.check(config, file);
            if (!checked.failures().isEmpty()) {
                evidence.record(checked.event()); // the check ran and failed: on record, though nothing was loaded
            }
            cloaking = cloakings.cloaking(checked, metrics, evidence, l.cloaking);
        }
        Policy policy = null;
        if (config.policy() != null) {
            policy = Policy.create(name, List.copyOf(config.upstreams().keySet()), config.policy(), metrics, controls,
                    evidence, l.secret, policyState(l, name, file));
        }
        // issue 11: the action gate, its documents read and bound now (a refusal names the key)
        TenantGate gate = null;
        if (config.gate() != null) {
            if (l.gate == null) {
                l.gate = GateStores.open(stores, data, name, config.gate(), file, evidence);
                if (stores.shared() && config.gate().approvalsDir() != null) {
                    LOG.warnf("tenant %s: gate.approvals_dir is not read with cloakgate.store=postgresql: receipts are"
                            + " kept in the database; upload them through the admin API", name);
                }
            }
            gate = TenantGate.load(name, config.gate(), file, java.time.Clock.systemUTC(), l.gate.operations(),
                    l.gate.approvals(config.gate()), l.gate.worker(), evidence);
            gate.checkUpstreams(config.upstreams().keySet(), file);
        }
        TenantSetup setup = new TenantSetup(config, cloaking, policy, l.calls, gate);
        // the credentials last, as the last step that may refuse: installed, they serve the tenant's next request
        try {
            auth.install(Gateway.authSource(config));
        } catch (AuthSetupException e) {
            throw new TenantConfigException(file, e.path(), e.getMessage());
        }
        // every entry from here on names the release this version enforces (none without a manifest)
        l.entries.bindRelease(gate == null ? null : gate.releaseHash());
        if (l.gate != null) {
            l.gate.recordSwept(); // issue 11: what the open swept to unknown, under the release now named
        }
        evidence.record(new Event.ConfigLoaded(name, name + ".json", config.digest()));
        if (checked != null) {
            evidence.record(checked.event());
        }
        sessions.install(setup);
        l.currentGate = gate;
        // issue 10, metrics: each configured upstream's start and restart counters exist from its first load at 0
        config.upstreams().keySet().forEach(u -> {
            upstreamMeters.register(name, u);
            sessions.health().of(name, u); // its health (and cloakgate_upstream_up) from the first load on
        });
        if (cloaking != null) {
            l.cloaking = cloaking;
        }
    }

    /** The file is gone: on record; its ledger stays open for the sessions still running, and for a return. */
    @Override
    public void removed(String tenant, String file) {
        evidence.record(new Event.ConfigRemoved(tenant, tenant + ".json"));
    }

    private Lasting lasting(String name, String file) throws TenantConfigException {
        Lasting l = lasting.get(name);
        if (l != null) {
            return l;
        }
        TenantSecret secret;
        try {
            secret = stores.secret(name); // issue 17: the shared secret in the PostgreSQL mode
        } catch (IOException e) {
            throw new TenantConfigException(file, "$", "cannot read or create the tenant secret"
                    + (stores.shared() ? "" : " under " + data.resolve("keys")) + ": " + e.getMessage());
        }
        Ledger ledger;
        try {
            // issue 10, metrics: each entry's time from submit to commit (group commit and fsync included)
            io.micrometer.core.instrument.Timer append = Latency.timer(metrics, "cloakgate.ledger.append",
                    "ledger entries, from submit to durable commit", Tags.of("tenant", name));
            Ledger.Settings settings = ledgerSettings.withAppendObserver(
                    nanos -> append.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS));
            // issue 17: with cloakgate.store=postgresql the tenant's one log lives in the shared database
            ledger = sharedLedgers.isPresent()
                    ? Ledger.open(PostgresLedgerStore.open(sharedLedgers.get(), name, settings.clock()), signer, settings)
                    : Ledger.open(data, name, signer, settings);
        } catch (RuntimeException e) {
            // a damaged ledger, or one another gateway holds: the tenant cannot keep evidence, so it is not served
            throw new TenantConfigException(file, "$", "cannot open the tenant's ledger: " + e.getMessage());
        }
        // issue 15: each checkpoint goes to the configured witnesses, asynchronously
        ledger.witnessWith(witnessing.cosigner(ledger.store()));
        LedgerEntries entries = new LedgerEntries(secret::sessionDigest);
        ledgerEvidence.add(name, ledger, entries);
        metrics.gauge("cloakgate.ledger.entries", Tags.of("tenant", name), ledger, Ledger::size);
        io.micrometer.core.instrument.Gauge.builder("cloakgate.ledger.checkpoint.age", ledger,
                x -> x.checkpointAge().toNanos() / 1e9).baseUnit("seconds")
                .description("how long the oldest entry not covered by a signed checkpoint has waited (0: all covered)")
                .tags("tenant", name).register(metrics);
        metrics.gauge("cloakgate.sessions.open", Tags.of("tenant", name), sessions, r -> r.open(name));
        // issue 10, process economy: what the tenant holds against its limits
        io.micrometer.core.instrument.Gauge.builder("cloakgate.tenant.sessions.held", sessions,
                r -> r.held(name).sessions()).tags("tenant", name).register(metrics);
        io.micrometer.core.instrument.Gauge.builder("cloakgate.tenant.stdio.children", sessions,
                r -> r.held(name).stdioChildren()).tags("tenant", name).register(metrics);
        for (String reason : List.of("too_many_sessions", "too_many_tenant_sessions", "too_many_stdio_children")) {
            metrics.counter("cloakgate.sessions.refused", "tenant", name, "reason", reason);
        }
        l = new Lasting(ledger, secret, new ForwardedCalls(name, secret, evidence), entries);
        lasting.put(name, l);
        return l;
    }

    private PolicyState policyState(Lasting l, String name, String file) throws TenantConfigException {
        if (l.policy == null) {
            try {
                l.policy = PolicyState.open(data, name, stores.pins(name)); // issue 17: pins where the stores keep them
            } catch (IOException e) {
                throw new TenantConfigException(file, "$.policy", "cannot set up the policy's state under " + data
                        + ": " + e.getMessage());
            }
        }
        return l.policy;
    }

    /** Issue 11: the tenant's gate stores (for the admin API), or null when it never had a gate. */
    GateStores gateStores(String tenant) {
        Lasting l = lasting.get(tenant);
        return l == null ? null : l.gate;
    }

    /** Issue 11: the gate of the tenant's version serving new sessions, or null when that version has none. */
    TenantGate gate(String tenant) {
        Lasting l = lasting.get(tenant);
        return l == null ? null : l.currentGate;
    }

    /** The tenant's open ledger (also of a tenant whose file was removed), or null. */
    Ledger ledger(String tenant) {
        Lasting l = lasting.get(tenant);
        return l == null ? null : l.ledger;
    }

    int ledgers() {
        return lasting.size();
    }

    /**
     * Closes every tenant's trace, then its ledger (flushing it and signing a final checkpoint). Last at
     * shutdown: sessions and policies may record until they are closed.
     */
    @Override
    public synchronized void close() {
        for (Map.Entry<String, Lasting> e : lasting.entrySet()) {
            if (e.getValue().policy != null) {
                e.getValue().policy.close();
            }
            if (e.getValue().gate != null) {
                e.getValue().gate.close();
            }
            try {
                e.getValue().ledger.close();
            } catch (RuntimeException x) {
                LOG.errorf("ledger of tenant %s did not close cleanly: %s", e.getKey(), x.getMessage());
            }
        }
        lasting.clear();
        witnessing.close(); // issue 15: after the ledgers, whose lanes it runs
    }
}
