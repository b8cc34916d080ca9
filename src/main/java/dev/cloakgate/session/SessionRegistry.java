package dev.cloakgate.session;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import java.util.function.Function;

import dev.cloakgate.auth.Principal;
import dev.cloakgate.cloak.Cloaking;
import dev.cloakgate.evidence.LogTag;
import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.upstream.Backoff;
import dev.cloakgate.upstream.HealthBoard;
import dev.cloakgate.upstream.SharedChild;
import dev.cloakgate.upstream.SharedChildren;
import dev.cloakgate.upstream.UpstreamHealth;
import dev.cloakgate.upstream.LinkFactory;
import dev.cloakgate.upstream.MessageLimit;
import dev.cloakgate.upstream.Upstream;

/**
 * Live sessions by id. Ids are 128 random bits, so knowing one session's id says nothing of another's. Idle
 * sessions expire; idle stdio children are ended and re-spawned on next use.
 */
public final class SessionRegistry {
    private static final Logger LOG = Logger.getLogger(SessionRegistry.class);

    private final GatewaySettings settings;
    private final JsonCodec codec;
    private final LinkFactory links;
    private final ScheduledExecutorService timer;
    private final Function<String, Cloaking> cloaking;
    private final Function<String, Policy> policies;
    private final Function<String, CallLog> calls;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, GatewaySession> sessions = new ConcurrentHashMap<>();
    /** Each tenant's newest setup: what its new sessions are made of (a reload installs a new one). */
    private final Map<String, TenantSetup> setups = new ConcurrentHashMap<>();
    /** Sessions created and not yet registered (their handshake runs): closed with the others at shutdown. */
    private final Set<GatewaySession> starting = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** Issue 10: every tenant's upstreams as operators see them (tenant status, metrics). */
    private final HealthBoard health = new HealthBoard();
    /** Issue 10: per-tenant fairness (sessions, stdio children) and the shared stdio children. */
    private final SharedChildren shared = new SharedChildren();
    private final TenantQuotas quotas;

    /**
     * @param cloaking each tenant's cloaking by name, or null for a tenant that does not sanitize
     * @param policies each tenant's policy by name, or null for a tenant without a policy block
     * @param calls each tenant's record of calls forwarded without a policy
     */
    public SessionRegistry(GatewaySettings settings, JsonCodec codec, LinkFactory links, ScheduledExecutorService timer,
            Function<String, Cloaking> cloaking, Function<String, Policy> policies, Function<String, CallLog> calls) {
        this.calls = calls;
        this.settings = settings;
        this.codec = codec;
        this.links = links;
        this.timer = timer;
        this.cloaking = cloaking;
        this.policies = policies;
        this.quotas = new TenantQuotas(settings, shared, this::sharedChild);
    }

    public SessionRegistry(GatewaySettings settings, JsonCodec codec, LinkFactory links, ScheduledExecutorService timer,
            Function<String, Cloaking> cloaking) {
        this(settings, codec, links, timer, cloaking, name -> null, name -> CallLog.NONE);
    }

    // ---- issue 17, sessions without a sticky load balancer ----
    /** Tenant name to a new session id, or to null for the 128 random bits in hex of one process. */
    private volatile Function<String, String> clusterIds = tenant -> null;

    /** In cluster mode, new sessions take their ids from {@code ids} (the owner replica, encrypted); set before serving. */
    public void issueIdsWith(Function<String, String> ids) {
        this.clusterIds = ids;
    }
    // ---- end issue 17 ----

    /** Makes {@code setup} what the tenant's new sessions are created from; existing sessions keep theirs. */
    public void install(TenantSetup setup) {
        setups.put(setup.config().name(), setup);
    }

    // ---- issue 10, per-tenant fairness: admission under the gateway's and the tenant's limits ----

    /** What an initialize gets: a session (not yet findable), or the stable code of the limit it met. */
    public sealed interface Admission permits Admitted, Refused {
    }

    /** Admitted: {@link #register} the session once its handshake succeeded; closing it gives back what it holds. */
    public record Admitted(GatewaySession session) implements Admission {
    }

    /** Refused (503): {@code too_many_sessions}, {@code too_many_tenant_sessions} or {@code too_many_stdio_children}. */
    public record Refused(String reason, String message) implements Admission {
    }

    /**
     * A new session for a client whose initialize carried {@code initializeParams}, if the gateway's and the
     * tenant's limits allow it; counted from now, its handshake included.
     */
    public Admission admit(TenantConfig tenant, Principal principal,
            com.fasterxml.jackson.databind.JsonNode initializeParams) {
        String version = ProtocolVersions.offer(initializeParams.path("protocolVersion").asText(null));
        TenantQuotas.Admission a = quotas.admit(tenant, version);
        if (a instanceof TenantQuotas.Refused r) {
            LOG.debugf("tenant %s: initialize refused (%s)", tenant.name(), r.reason());
            return new Refused(r.reason(), r.message());
        }
        TenantQuotas.Granted granted = (TenantQuotas.Granted) a;
        try {
            GatewaySession s = build(tenant, principal, granted);
            s.whenClosed(granted::release);
            return new Admitted(s);
        } catch (RuntimeException e) {
            granted.release();
            throw e;
        }
    }

    /** A new session of a tenant that asks for no credential (anyone is the anonymous agent). */
    public GatewaySession create(TenantConfig tenant) {
        return create(tenant, Principal.anonymous(tenant.name()));
    }

    /**
     * A new session opened by {@code principal} under the limits (refused with an exception), not yet findable:
     * {@link #register} it once its handshake succeeded.
     */
    public GatewaySession create(TenantConfig tenant, Principal principal) {
        Admission a = admit(tenant, principal, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        if (a instanceof Refused r) {
            throw new IllegalStateException(r.reason() + ": " + r.message());
        }
        return ((Admitted) a).session();
    }

    /** What a tenant holds of the gateway: sessions (open or opening) and the stdio children they hold. */
    public record Held(int sessions, int stdioChildren) {
    }

    /** What the tenant holds now, for metrics, status and tests. */
    public Held held(String tenant) {
        return quotas.held(tenant);
    }

    /** A tenant's shared child for one protocol version; it reports to the tenant's upstream health once for all. */
    private SharedChild sharedChild(TenantConfig tenant, UpstreamConfig.Stdio cfg, String version) {
        return new SharedChild(cfg, tenant.name() + "/" + cfg.name() + " (shared, " + version + ")", links,
                messageLimit(tenant), version, settings.version(), settings.initializeTimeout(),
                new Backoff(settings.backoffInitial(), settings.backoffMax(), System::nanoTime),
                health.of(tenant.name(), cfg.name()));
    }

    // ---- end of issue 10, admission ----

    /**
     * The session itself, made of the tenant's newest installed setup (so of a configuration at least as new as
     * {@code admitted}), or, when none was installed, of {@code admitted} and this registry's per-name lookups; it
     * stays bound to {@code principal} whatever later versions of the tenant file say.
     */
    private GatewaySession build(TenantConfig admitted, Principal principal, TenantQuotas.Granted granted) {
        TenantSetup setup = setups.get(admitted.name());
        if (setup == null) {
            setup = new TenantSetup(admitted, admitted.sanitize() ? cloaking.apply(admitted.name()) : null,
                    admitted.policy() != null ? policies.apply(admitted.name()) : null, calls.apply(admitted.name()));
        }
        TenantConfig tenant = setup.config();
        String id = clusterIds.apply(tenant.name()); // issue 17: a replica's ids name it, encrypted
        if (id == null) {
            byte[] b = new byte[16];
            random.nextBytes(b);
            id = HexFormat.of().formatHex(b);
        }
        Upstream.Limits limits = new Upstream.Limits(settings.initializeTimeout(), settings.requestTimeout(),
                settings.upstreamIdleTimeout(), messageLimit(tenant));
        Cloaking c = tenant.sanitize() ? setup.cloaking() : null;
        Policy p = tenant.policy() != null ? setup.policy() : null;
        GatewaySession session = new GatewaySession(id, tenant, settings.version(), codec,
                new SessionStreams(settings.eventBufferEvents(), settings.eventBufferBytes(), settings.maxQueuedBytes()),
                (UpstreamConfig cfg, String label, Upstream.Listener listener) -> {
                    SharedChildren.Lease lease = granted.leases().get(cfg.name());
                    // a view of a shared child links to it; the child reports its health, once for every session
                    LinkFactory factory = lease == null ? links : (x, l, limit, inbound) -> lease.child().view(inbound);
                    UpstreamHealth h = lease == null ? health.of(tenant.name(), cfg.name())
                            : new UpstreamHealth(tenant.name(), cfg.name(), java.time.Clock.systemUTC());
                    return new Upstream(cfg, label, factory, listener, timer, limits,
                            new Backoff(settings.backoffInitial(), settings.backoffMax(), System::nanoTime), h);
                },
                c == null ? null : c.session(id), p == null ? null : p.session(id),
                p == null ? setup.calls() : CallLog.NONE, principal, setup.gate());
        starting.add(session);
        if (closed) {
            session.close(); // created while the gateway shut down: its handshake fails, register refuses it
        }
        return session;
    }

    /** What a result may add to {@code budget.output_bytes} as sent: the JSON-RPC envelope around it. */
    static final int RESULT_ENVELOPE_BYTES = 1024;

    /**
     * The largest message the tenant's upstreams may send, known before a byte of it is read: with a budget,
     * a result over {@code output_bytes} (plus its envelope) would be refused after parsing, so it is refused
     * while reading instead; the gateway's own limit bounds every tenant.
     */
    MessageLimit messageLimit(TenantConfig tenant) {
        int gateway = settings.upstreamLimits().maxBytes();
        if (tenant.policy() != null && tenant.policy().on("budget")) {
            long output = tenant.policy().budget().outputBytes();
            if (output + RESULT_ENVELOPE_BYTES < gateway) {
                return new MessageLimit((int) (output + RESULT_ENVELOPE_BYTES), "the tenant's budget.output_bytes of "
                        + output + " and " + RESULT_ENVELOPE_BYTES + " bytes of envelope");
            }
        }
        return new MessageLimit(gateway, "cloakgate.upstream.max-message-bytes");
    }

    // --- issue 10, metrics: sessions open per tenant (a scrape walks the sessions once per tenant) ---
    /** Sessions of {@code tenant} registered and not ended. */
    public long open(String tenant) {
        return of(tenant).size();
    }
    // --- end metrics ---

    public boolean full() {
        return sessions.size() >= settings.maxSessions();
    }

    /** The health of every tenant's upstreams, for tenant status and metrics. */
    public HealthBoard health() {
        return health;
    }

    /**
     * Makes a session findable by its id once its handshake succeeded; false (and the session is closed) when
     * the registry closed meanwhile: the gateway is shutting down.
     */
    public boolean register(GatewaySession s) {
        starting.remove(s);
        sessions.put(s.id(), s);
        if (closed || s.closed()) {
            remove(s.id());
            return false;
        }
        return true;
    }

    public GatewaySession get(String id) {
        return id == null ? null : sessions.get(id);
    }

    /** Ends a session and its upstream sessions; false when it was not known. */
    public boolean remove(String id) {
        GatewaySession s = id == null ? null : sessions.remove(id);
        if (s == null) {
            return false;
        }
        s.close();
        return true;
    }

    public int size() {
        return sessions.size();
    }

    /**
     * Expires idle sessions and ends idle stdio children (run periodically). A session whose client keeps a stream
     * open is ended after {@code idle-timeout} without traffic; one with no open stream (a client that went away
     * without DELETE leaves none) after the shorter {@code streamless-idle-timeout}, giving back its children.
     */
    public void sweep() {
        starting.removeIf(GatewaySession::closed); // handshakes that failed

        long sessionIdle = settings.sessionIdleTimeout().toNanos();
        // never longer than the timeout of a session that keeps a stream open
        long streamlessIdle = Math.min(sessionIdle, settings.streamlessIdleTimeout().toNanos());
        long upstreamIdle = settings.upstreamIdleTimeout().toNanos();
        for (GatewaySession s : List.copyOf(sessions.values())) {
            boolean streaming = s.streams().liveConnections() > 0;
            if (!s.hasInflight() && s.idleNanos() > (streaming ? sessionIdle : streamlessIdle)) {
                LOG.debugf("session %s expired after %d s idle%s", LogTag.of(s.id()),
                        TimeUnit.NANOSECONDS.toSeconds(streaming ? sessionIdle : streamlessIdle),
                        streaming ? "" : " with no open stream");
                remove(s.id());
                continue;
            }
            for (Upstream u : s.upstreams().values()) {
                // a shared child is not this session's to end
                if (u.config() instanceof UpstreamConfig.Stdio st && !st.shared() && u.connected()
                        && u.idleNanos() > upstreamIdle && !s.busy()) {
                    LOG.debugf("session %s: ending idle upstream %s", LogTag.of(s.id()), u.name());
                    u.release();
                }
            }
        }
    }

    /** The live sessions of one tenant (issue 10, admin API: sessions list and end). */
    public List<GatewaySession> of(String tenant) {
        return sessions.values().stream().filter(s -> s.tenant().name().equals(tenant)).toList();
    }

    /**
     * Answers every call still waiting for an upstream with {@code answer} and tells its upstream it is
     * cancelled (the gateway is shutting down); the number of calls. {@code each} hears of every call first.
     */
    public int abandonInFlight(dev.cloakgate.jsonrpc.RpcError answer, AbandonedCall each) {
        int n = 0;
        for (GatewaySession s : List.copyOf(sessions.values())) {
            n += s.abandonInFlight(answer, each);
        }
        return n;
    }

    /**
     * Told of each call the gateway gave up on while it was in flight: its side effect upstream may or may not
     * have happened. The hook where an operations store records such a call as {@code unknown}.
     */
    @FunctionalInterface
    public interface AbandonedCall {
        /** @param method the JSON-RPC method; {@code upstream} the upstream's name (never the client's text) */
        void abandoned(GatewaySession session, String method, String upstream);
    }

    /** Ends every session, those still in their handshake too; sessions created after it are refused. */
    public void closeAll() {
        closed = true;
        for (GatewaySession s : List.copyOf(starting)) {
            s.close();
        }
        starting.clear();
        for (String id : List.copyOf(sessions.keySet())) {
            remove(id);
        }
    }
}
