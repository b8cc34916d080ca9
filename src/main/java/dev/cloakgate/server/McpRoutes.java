package dev.cloakgate.server;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.auth.Access;
import dev.cloakgate.auth.Principal;
import dev.cloakgate.auth.PrincipalMeter;
import dev.cloakgate.auth.Role;
import dev.cloakgate.jsonrpc.Envelope;
import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.jsonrpc.RpcException;
import dev.cloakgate.session.GatewaySession;
import dev.cloakgate.session.ProtocolVersions;
import dev.cloakgate.session.SessionStreams;
import dev.cloakgate.tenant.TenantConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The MCP streamable-HTTP front at {@code /t/{tenant}/mcp}: POST one message, GET the standalone stream, DELETE
 * the session. Everything that cannot be read, verified or routed is refused here with a JSON-RPC error body
 * and the status the transport specification names; nothing reaches a session unparsed.
 */
@ApplicationScoped
public class McpRoutes {
    private static final Logger LOG = Logger.getLogger(McpRoutes.class);
    private static final String PATH = "/t/:tenant/mcp";
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    /** Methods counted under their own name; anything else is "other" (a label must not carry client text). */
    private static final Set<String> KNOWN_METHODS = Latency.KNOWN_METHODS;

    @Inject
    Gateway gateway;

    @Inject
    Vertx vertx;

    @Inject
    MeterRegistry metrics;

    @Inject
    Outbound outbound;

    private volatile OriginGuard origins;

    @Inject
    AccessRefusals refusals;

    void routes(@Observes Router router) {
        requests = new Latency.Histogram(metrics, "cloakgate.request", "client requests, from the parsed body to the answer");
        router.post(PATH).handler(this::post);
        router.get(PATH).handler(this::get);
        router.delete(PATH).handler(this::delete);
        router.route(PATH).handler(rc -> rc.response().setStatusCode(405).putHeader("Allow", "GET, POST, DELETE").end());
    }

    // ---- POST: one JSON-RPC message ----

    private void post(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        Caller caller = admit(rc);
        if (caller == null) {
            return;
        }
        String type = req.getHeader("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            refuse(rc, 415, RpcError.of(ErrorCodes.INVALID_REQUEST, "unsupported_media_type",
                    "POST bodies must be application/json"));
            return;
        }
        Accept accept = Accept.of(req.getHeader("Accept"));
        if (!accept.json && !accept.sse) {
            refuse(rc, 406, RpcError.of(ErrorCodes.INVALID_REQUEST, "not_acceptable",
                    "Accept must include application/json and text/event-stream"));
            return;
        }
        int limit = gateway.config().http().maxBodyBytes();
        String length = req.getHeader("Content-Length");
        if (length != null && parseLong(length) > limit) {
            tooLarge(rc, limit);
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] over = new boolean[1];
        req.handler(chunk -> {
            if (over[0]) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                over[0] = true;
                tooLarge(rc, limit);
                return;
            }
            body.appendBuffer(chunk);
        });
        req.exceptionHandler(t -> LOG.debugf("request body read failed: %s", t.getClass().getSimpleName()));
        req.endHandler(v -> {
            if (over[0]) {
                return;
            }
            // issue 17: a session another replica owns is forwarded there as read (the owner parses and judges it)
            ClusterFront.Routed routed = cluster().route(rc, caller.tenant().name(), req.getHeader(SESSION_HEADER), body,
                    this::peerAuthFailed, this::unknownSession);
            if (routed == ClusterFront.Routed.FORWARDED) {
                inFlight(rc); // a drain waits for the owner's answer to be relayed
            }
            if (routed != ClusterFront.Routed.HERE) {
                return;
            }
            if (gateway.lanes().large(body.length())) {
                // parsing and judging a large body would hold the event loop: a large-message worker does it
                gateway.lanes().laneFor(body.length()).execute(() -> message(rc, caller, body, accept));
            } else {
                message(rc, caller, body, accept);
            }
        });
        req.resume();
    }

    private void message(RoutingContext rc, Caller caller, Buffer body, Accept accept) {
        TenantConfig tenant = caller.tenant();
        JsonCodec codec = gateway.clientCodec();
        JsonNode msg;
        try {
            msg = codec.parse(body.getBytes());
        } catch (JsonCodec.MalformedJson e) {
            if (e.tooDeep()) {
                refuse(rc, 413, RpcError.of(ErrorCodes.INVALID_REQUEST, "too_deep", e.getMessage()));
            } else {
                refuse(rc, 400, RpcError.of(ErrorCodes.PARSE_ERROR, "unreadable", e.getMessage()));
            }
            return;
        }
        Envelope.Kind kind;
        try {
            kind = Envelope.classify(msg);
        } catch (RpcException e) {
            refuse(rc, 400, e.error());
            return;
        }
        ObjectNode m = (ObjectNode) msg;
        String method = Messages.method(m);
        count(tenant, kind == Envelope.Kind.RESPONSE ? "response" : method);
        String sid = rc.request().getHeader(SESSION_HEADER);
        // the client's answers to what upstreams asked of it are owed, not asked for: they are not counted
        if (kind != Envelope.Kind.RESPONSE && !withinRate(rc, caller)) {
            return;
        }
        if (kind == Envelope.Kind.REQUEST && "initialize".equals(method)) {
            initialize(rc, caller, m, sid);
            return;
        }
        GatewaySession session = session(rc, caller, sid);
        if (session == null || !protocolVersionOk(rc)) {
            return;
        }
        switch (kind) {
            case NOTIFICATION -> {
                session.notification(m);
                rc.response().setStatusCode(202).end();
            }
            case RESPONSE -> {
                session.response(m);
                rc.response().setStatusCode(202).end();
            }
            case REQUEST -> {
                inFlight(rc);
                PostExchange exchange = new PostExchange(rc, vertx, accept.sse, session.streams(), codec,
                        keepAliveMillis(), gateway.config().http().sseRetryMillis(), outbound);
                exchange.armKeepAlive();
                long t0 = System.nanoTime();
                session.request(m, exchange).whenComplete((response, t) -> {
                    timed(tenant, method, t0);
                    exchange.complete(t == null ? response
                            : RpcError.of(ErrorCodes.INTERNAL_ERROR, "internal_error", "internal gateway error")
                                    .toResponse(m.get("id")));
                });
            }
        }
    }

    private void initialize(RoutingContext rc, Caller caller, ObjectNode m, String sid) {
        TenantConfig tenant = caller.tenant();
        if (sid != null) {
            refuse(rc, 400, RpcError.of(ErrorCodes.INVALID_REQUEST, "session_on_initialize",
                    "initialize starts a new session: send it without Mcp-Session-Id"));
            return;
        }
        // ---- issue 10: graceful drain, live tenant configuration ----
        if (gateway.draining()) {
            rc.response().putHeader("Retry-After", "1");
            refuse(rc, 503, SHUTTING_DOWN);
            return;
        }
        if (!gateway.tenants().accepting(tenant.name())) {
            // its file was removed: existing sessions go on, new ones are refused as for any unknown tenant
            refuse(rc, 404, RpcError.of(ErrorCodes.INVALID_REQUEST, "unknown_tenant", "no such tenant"));
            return;
        }
        inFlight(rc);
        // ---- end issue 10 ----
        var registry = gateway.sessions();
        PrincipalMeter.Lease lease = gateway.meter().openSession(caller.principal());
        if (lease == null) {
            refusals.limited(tenant.name(), caller.principal().name(), "principal_session_limit");
            rc.response().putHeader("Retry-After", "60");
            refuse(rc, 429, RpcError.of(ErrorCodes.REFUSED, "principal_session_limit", "principal "
                    + caller.principal().name() + " has as many sessions open as its limit allows (auth limits.sessions);"
                    + " end one (DELETE) or retry later"));
            return;
        }
        // issue 10, fairness: the gateway's ceiling and this tenant's caps on sessions and stdio children
        dev.cloakgate.session.SessionRegistry.Admission admission;
        try {
            admission = registry.admit(tenant, caller.principal(), m.path("params"));
        } catch (RuntimeException e) {
            lease.release();
            throw e;
        }
        if (admission instanceof dev.cloakgate.session.SessionRegistry.Refused r) {
            lease.release();
            gateway.sessionRefused(tenant.name(), r.reason());
            rc.response().putHeader("Retry-After", "30");
            refuse(rc, 503, RpcError.of(ErrorCodes.INTERNAL_ERROR, r.reason(), r.message()));
            return;
        }
        GatewaySession session = ((dev.cloakgate.session.SessionRegistry.Admitted) admission).session();
        session.whenClosed(lease::release);
        // issue 11: the orchestrator's signed task context, trusted only from this header and only when it verifies
        String taskHeader = rc.request().getHeader(dev.cloakgate.gate.TaskContexts.HEADER);
        if (taskHeader != null && session.gate() != null) {
            dev.cloakgate.gate.TaskContexts.Outcome task = session.gate().taskContext(taskHeader);
            if (task instanceof dev.cloakgate.gate.TaskContexts.Refused r) {
                session.close();
                refuse(rc, "task_context_unreadable".equals(r.reason()) ? 400 : 403, RpcError.of(ErrorCodes.REFUSED,
                        r.reason(), "the " + dev.cloakgate.gate.TaskContexts.HEADER + " header was refused: " + r.detail()));
                return;
            }
            session.task().set(((dev.cloakgate.gate.TaskContexts.Verified) task).context());
        }
        long t0 = System.nanoTime();
        session.initialize(m).whenComplete((response, t) -> {
            timed(tenant, "initialize", t0);
            if (t != null || response.has("error")) {
                session.close();
                json(rc, 200, t == null ? response
                        : RpcError.of(ErrorCodes.INTERNAL_ERROR, "internal_error", "internal gateway error")
                                .toResponse(m.get("id")));
                return;
            }
            if (!registry.register(session)) {
                refuse(rc, 503, SHUTTING_DOWN); // the gateway closed its sessions while this one started
                return;
            }
            if (!caller.principal().anonymous()) {
                LOG.debugf("session %s opened by principal %s of tenant %s", dev.cloakgate.evidence.LogTag.of(session.id()),
                        caller.principal().name(), tenant.name());
            }
            rc.response().putHeader(SESSION_HEADER, session.id());
            json(rc, 200, response);
        });
    }

    // ---- GET: the standalone stream, or a resumed one ----

    private void get(RoutingContext rc) {
        Caller caller = admit(rc);
        if (caller == null) {
            return;
        }
        if (!Accept.of(rc.request().getHeader("Accept")).sse) {
            refuse(rc, 406, RpcError.of(ErrorCodes.INVALID_REQUEST, "not_acceptable",
                    "GET opens an event stream: Accept must include text/event-stream"));
            return;
        }
        if (cluster().route(rc, caller.tenant().name(), rc.request().getHeader(SESSION_HEADER), Buffer.buffer(),
                this::peerAuthFailed, this::unknownSession) != ClusterFront.Routed.HERE) {
            return; // issue 17: the stream, Last-Event-ID included, is the owner's to serve
        }
        GatewaySession session = session(rc, caller, rc.request().getHeader(SESSION_HEADER));
        if (session == null || !protocolVersionOk(rc)) {
            return;
        }
        String lastEventId = rc.request().getHeader("Last-Event-ID");
        SessionStreams streams = session.streams();
        SessionStreams.Stream[] attached = new SessionStreams.Stream[1];
        SseSink[] self = new SseSink[1];
        self[0] = new SseSink(rc, vertx, keepAliveMillis(), gateway.config().http().sseRetryMillis(), outbound,
                streams.backlog(), () -> {
                    if (attached[0] != null) {
                        streams.detach(attached[0], self[0]);
                    }
                });
        attached[0] = streams.attach(lastEventId, self[0]);
        if (attached[0] == null) {
            self[0].end();
        } else if (lastEventId == null) {
            streams.emit(attached[0], "");
        }
    }

    // ---- DELETE: end the session and its upstream sessions ----

    private void delete(RoutingContext rc) {
        Caller caller = admit(rc);
        if (caller == null) {
            return;
        }
        if (cluster().route(rc, caller.tenant().name(), rc.request().getHeader(SESSION_HEADER), Buffer.buffer(),
                this::peerAuthFailed, this::unknownSession) != ClusterFront.Routed.HERE) {
            return; // issue 17: ended at its owner
        }
        GatewaySession session = session(rc, caller, rc.request().getHeader(SESSION_HEADER));
        if (session == null) {
            return;
        }
        gateway.sessions().remove(session.id());
        rc.response().setStatusCode(200).end();
    }

    // ---- shared checks ----

    /** The tenant of the path and who calls it as an agent: a tenant and a principal. */
    private record Caller(TenantConfig tenant, Principal principal) {
    }

    /**
     * The tenant of the path and the agent calling it, after the origin check and before anything of the request
     * is read; null when a refusal was sent. A credential of another tenant gets what a bad one gets.
     */
    private Caller admit(RoutingContext rc) {
        if (!origins().allows(rc.request().getHeader("Origin"))) {
            refuse(rc, 403, RpcError.of(ErrorCodes.INVALID_REQUEST, "origin_not_allowed",
                    "Origin not allowed; add it to cloakgate.http.allowed-origins if it is yours"));
            return null;
        }
        String name = rc.pathParam("tenant");
        // a tenant whose file was removed still serves its existing sessions; initialize checks it takes new ones
        TenantConfig tenant = gateway.tenants() == null ? null : gateway.tenants().lastAccepted(name).orElse(null);
        // issue 16: credential first, as the admin API asks it (issue 15): an unknown tenant gets what a bad credential
        // gets, so the endpoint tells nobody without a credential which tenants exist
        Access access = tenant == null ? dev.cloakgate.auth.AuthRegistry.unknownTenant(rc.request().getHeader("Authorization"))
                : gateway.access().check(Gateway.authSource(tenant), rc.request().getHeader("Authorization"), Role.AGENT);
        if (access instanceof Access.Refused r) {
            if (tenant != null) {
                refusals.record(tenant.name(), r); // an unknown tenant is not counted: its name is the client's text
            }
            if (r.challenge() != null) {
                rc.response().putHeader("WWW-Authenticate", r.challenge());
            }
            refuse(rc, r.status(), RpcError.of(ErrorCodes.INVALID_REQUEST, r.reason(), r.message()));
            return null;
        }
        return new Caller(tenant, ((Access.Granted) access).principal());
    }

    private static final RpcError SHUTTING_DOWN = RpcError.of(ErrorCodes.INTERNAL_ERROR, "shutting_down",
            "the gateway is shutting down and takes no new sessions; initialize again (another replica takes it)");

    /** Counts the request as in flight until its response has ended, so a shutdown waits for its answer. */
    private void inFlight(RoutingContext rc) {
        Drain d = gateway.drainState();
        d.enter();
        rc.addEndHandler(ar -> d.exit());
    }

    /** Per-principal calls per minute; a message over the limit gets 429 with the seconds to wait. */
    private boolean withinRate(RoutingContext rc, Caller caller) {
        long wait = gateway.meter().tryCall(caller.principal());
        if (wait == 0) {
            return true;
        }
        refusals.limited(caller.tenant().name(), caller.principal().name(), "principal_rate_limited");
        rc.response().putHeader("Retry-After", Long.toString(wait));
        refuse(rc, 429, RpcError.of(ErrorCodes.REFUSED, "principal_rate_limited", "principal " + caller.principal().name()
                + " is over its calls_per_minute (auth limits); retry in " + wait + " s").with("retryAfterSeconds",
                        com.fasterxml.jackson.databind.node.LongNode.valueOf(wait)));
        return false;
    }

    /**
     * The session of this id, if the same principal of the same tenant opened it. Any other case is answered as a
     * session that does not exist: a session id is a bearer handle, and another principal's is not one's own.
     */
    private GatewaySession session(RoutingContext rc, Caller caller, String sid) {
        TenantConfig tenant = caller.tenant();
        if (sid == null) {
            refuse(rc, 400, RpcError.of(ErrorCodes.INVALID_REQUEST, "missing_session",
                    "Mcp-Session-Id header required; send initialize first"));
            return null;
        }
        GatewaySession s = gateway.sessions().get(sid);
        if (s == null || !s.tenant().name().equals(tenant.name()) || !s.principal().sameAs(caller.principal())) {
            unknownSession(rc);
            return null;
        }
        return s;
    }

    private void unknownSession(RoutingContext rc) {
        refuse(rc, 404, RpcError.of(ErrorCodes.INVALID_REQUEST, "unknown_session",
                "session not found or expired; initialize a new one"));
    }

    // ---- issue 17: sessions without a sticky load balancer ----
    private volatile ClusterFront cluster;

    private ClusterFront cluster() {
        ClusterFront c = cluster;
        if (c == null && gateway.router() == null) {
            // still starting: serve as one process until the cluster settings are read (nothing is forwarded yet)
            return new ClusterFront(vertx, null, gateway.config().cluster(), new dev.cloakgate.cluster.SessionRouter(null),
                    0, metrics);
        }
        if (c == null) {
            synchronized (this) {
                if (cluster == null) {
                    cluster = new ClusterFront(vertx, gateway.cluster(), gateway.config().cluster(), gateway.router(),
                            gateway.config().session().maxSessions() + 1000, metrics);
                }
                c = cluster;
            }
        }
        return c;
    }

    private void peerAuthFailed(RoutingContext rc) {
        refuse(rc, 403, RpcError.of(ErrorCodes.INVALID_REQUEST, "peer_auth_failed", "the "
                + dev.cloakgate.cluster.PeerSignature.HEADER + " header did not verify; only a replica of this cluster "
                + "may send it (check that every replica mounts the same cloakgate.cluster.key-file and their clocks agree)"));
    }
    // ---- end issue 17 ----

    /** An MCP-Protocol-Version the gateway does not serve gets 400; a missing one means 2025-03-26. */
    private boolean protocolVersionOk(RoutingContext rc) {
        String v = rc.request().getHeader("MCP-Protocol-Version");
        if (v != null && !ProtocolVersions.supported(v)) {
            refuse(rc, 400, RpcError.of(ErrorCodes.INVALID_REQUEST, "unsupported_protocol_version",
                    "MCP-Protocol-Version not supported; this gateway serves "
                            + String.join(", ", ProtocolVersions.SUPPORTED)));
            return false;
        }
        return true;
    }

    private void tooLarge(RoutingContext rc, int limit) {
        // the rest of the body is not worth reading: the connection closes once the answer is out
        rc.response().putHeader("Connection", "close");
        rc.addEndHandler(ar -> rc.request().connection().close());
        refuse(rc, 413, RpcError.of(ErrorCodes.INVALID_REQUEST, "too_large",
                "request body exceeds " + limit + " bytes (cloakgate.http.max-body-bytes)"));
    }

    private void refuse(RoutingContext rc, int status, RpcError error) {
        json(rc, status, error.toResponse(null));
    }

    private void json(RoutingContext rc, int status, ObjectNode body) {
        if (rc.response().ended() || rc.response().closed()) {
            return;
        }
        rc.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(Buffer.buffer(gateway.clientCodec() == null ? body.toString().getBytes()
                        : gateway.clientCodec().toBytes(body)));
    }

    // --- issue 10, metrics: request latency per tenant and method ---
    private static final java.util.function.Function<String, io.micrometer.core.instrument.Tags> BY_TENANT =
            t -> io.micrometer.core.instrument.Tags.of("tenant", t);
    private volatile Latency.Histogram requests;

    /** A request's time in the gateway, from its parsed body to its answer: what the client waits, less the network. */
    private void timed(TenantConfig tenant, String method, long t0) {
        requests.scope(tenant.name(), BY_TENANT).record(method, System.nanoTime() - t0);
    }
    // --- end metrics ---

    // issue 10, performance: each message finds its counter in two map lookups, not a registry lookup with new tags
    private final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.ConcurrentHashMap<String,
            io.micrometer.core.instrument.Counter>> messages = new java.util.concurrent.ConcurrentHashMap<>();

    private void count(TenantConfig tenant, String method) {
        String label = method != null && (KNOWN_METHODS.contains(method) || "response".equals(method)) ? method : "other";
        var byMethod = messages.computeIfAbsent(tenant.name(), t -> new java.util.concurrent.ConcurrentHashMap<>());
        var c = byMethod.get(label);
        if (c == null) {
            c = byMethod.computeIfAbsent(label, m -> metrics.counter("cloakgate.messages", "tenant", tenant.name(), "method", m));
        }
        c.increment();
    }

    private OriginGuard origins() {
        OriginGuard g = origins;
        if (g == null) {
            g = new OriginGuard(gateway.config().http().allowedOrigins().orElse(List.of()));
            origins = g;
        }
        return g;
    }

    private long keepAliveMillis() {
        return gateway.keepAlive().toMillis();
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** What the client's Accept header allows; absent or wildcard allows both. */
    private record Accept(boolean json, boolean sse) {
        static Accept of(String header) {
            if (header == null || header.isBlank()) {
                return new Accept(true, true);
            }
            String h = header.toLowerCase(Locale.ROOT);
            boolean any = h.contains("*/*");
            return new Accept(any || h.contains("application/json") || h.contains("application/*"),
                    any || h.contains("text/event-stream") || h.contains("text/*"));
        }
    }
}
