package dev.cloakgate.upstream;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.tenant.UpstreamConfig;

/**
 * One stdio child serving every session of a tenant that speaks one protocol version, for a server the operator
 * declared stateless ({@code "shared": true}). Each session gets a {@link #view} of it: a link of its own, through
 * which it sees only what is its own.
 *
 * <ul>
 * <li>Ids: the child's link issues every request id, so a response completes only the request that carried its id,
 * which one session sent.</li>
 * <li>Progress: a session's progress token is replaced by one of the child's own and progress is routed back by it, to
 * that session only.</li>
 * <li>A session may cancel only its own requests and address only the task ids the child gave it; it changes nothing
 * the others share: {@code logging/setLevel} is answered here, subscriptions and {@code tasks/list} (every
 * session's tasks) are refused.</li>
 * <li>Notifications that belong to no request (the list_changed ones) go to every session; any other notification
 * (log lines, resource updates) cannot be told apart on stdio and is dropped, never guessed.</li>
 * <li>Requests of the child to a client cannot be told apart either: ping is answered here, anything else is refused
 * back to the child. The child is initialized with the gateway's own client info and no client capabilities (no
 * sampling, elicitation or roots), so a server that follows the protocol never asks.</li>
 * <li>A child that dies fails the requests in flight of every session; the next call of any session starts one new
 * child for all (with backoff).</li>
 * </ul>
 * Cloaking, policy and token vaults stay per session: a view hands each message to its own session. What the server
 * itself keeps between calls is the operator's promise (stateless), not something the gateway can check.
 */
public final class SharedChild {
    private static final Logger LOG = Logger.getLogger(SharedChild.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private record Running(UpstreamLink link, ObjectNode initializeResult) {
    }

    /** Where a progress token of the child's goes back to: a session's view, under that session's own token. */
    private record Routed(View view, JsonNode token) {
    }

    private final UpstreamConfig.Stdio config;
    private final String label;
    private final LinkFactory links;
    private final MessageLimit limit;
    private final String protocolVersion;
    private final ObjectNode initializeParams;
    private final Duration initializeTimeout;
    private final Backoff backoff;
    private final UpstreamHealth health;
    private final Set<View> views = ConcurrentHashMap.newKeySet();
    private final Map<Long, Routed> progress = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();
    private CompletableFuture<Running> current;
    private UpstreamException lastFailure;
    private boolean recovering;
    private boolean closed;

    /**
     * @param protocolVersion the version offered to the child: the one its sessions' clients asked for
     * @param gatewayVersion named in the client info the child is initialized with
     * @param health where the child's starts and failures are reported (once, for every session)
     */
    public SharedChild(UpstreamConfig.Stdio config, String label, LinkFactory links, MessageLimit limit,
            String protocolVersion, String gatewayVersion, Duration initializeTimeout, Backoff backoff,
            UpstreamHealth health) {
        this.config = config;
        this.label = label;
        this.links = links;
        this.limit = limit;
        this.protocolVersion = protocolVersion;
        this.initializeTimeout = initializeTimeout;
        this.backoff = backoff;
        this.health = health;
        this.initializeParams = F.objectNode().put("protocolVersion", protocolVersion);
        initializeParams.putObject("capabilities");
        initializeParams.putObject("clientInfo").put("name", "cloakgate").put("version", gatewayVersion);
    }

    public String protocolVersion() {
        return protocolVersion;
    }

    /** A link for one session over this child; its initialize starts the child when none runs. */
    public UpstreamLink view(UpstreamLink.Inbound inbound) {
        return new View(inbound);
    }

    /** Stops the child: the last session holding it ended. */
    public void close() {
        CompletableFuture<Running> f;
        synchronized (this) {
            closed = true;
            f = current;
            current = null;
        }
        if (f != null) {
            f.thenAccept(r -> r.link().close());
        }
        List.copyOf(views).forEach(v -> v.gone(new UpstreamException(config.name(),
                UpstreamException.Reason.UPSTREAM_UNAVAILABLE, "was stopped (no session holds it)")));
    }

    /** The running child, starting one when none runs, or the failure that keeps it from running. */
    private synchronized CompletableFuture<Running> running() {
        if (closed) {
            return CompletableFuture.failedFuture(new UpstreamException(config.name(),
                    UpstreamException.Reason.UPSTREAM_UNAVAILABLE, "was stopped (no session holds it)"));
        }
        if (current != null && !(current.isDone() && current.isCompletedExceptionally())) {
            return current;
        }
        long wait = backoff.remainingNanos();
        if (wait > 0) {
            return CompletableFuture.failedFuture(LinkSetup.backingOff(config.name(), wait, lastFailure));
        }
        current = start();
        return current;
    }

    private CompletableFuture<Running> start() {
        CompletableFuture<UpstreamLink> self = new CompletableFuture<>();
        UpstreamLink link = links.create(config, label, limit, new UpstreamLink.Inbound() {
            @Override
            public void onMessage(ObjectNode message) {
                self.thenAccept(l -> fromChild(l, message));
            }

            @Override
            public void onClosed(UpstreamException why) {
                self.thenAccept(l -> childGone(l, why));
            }
        });
        self.complete(link);
        return link.open().thenCompose(v -> link.request("initialize", initializeParams, null).response())
                .orTimeout(initializeTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(response -> {
                    ObjectNode result = LinkSetup.initializeResult(config.name(), response);
                    link.send(Messages.notification("notifications/initialized", null));
                    link.initialized(result.path("protocolVersion").asText());
                    return new Running(link, result);
                }).handle((r, t) -> {
                    if (t != null) {
                        UpstreamException why = LinkSetup.failure(config.name(), t, initializeTimeout);
                        link.close();
                        synchronized (this) {
                            lastFailure = why;
                            recovering = true;
                        }
                        backoff.failed();
                        health.failed(why);
                        LinkSetup.logFailure(label, true, health, why);
                        throw why;
                    }
                    boolean restart;
                    boolean stopped;
                    synchronized (this) {
                        restart = recovering;
                        recovering = false;
                        stopped = closed;
                    }
                    backoff.succeeded();
                    health.up(restart);
                    if (stopped) {
                        link.close();
                    }
                    LOG.debugf("upstream %s: shared child started", label);
                    return r;
                });
    }

    /** A request or notification of the child: routed to the one session it belongs to, to all, or nowhere. */
    private void fromChild(UpstreamLink link, ObjectNode m) {
        String method = Messages.method(m);
        if (Messages.isRequest(m)) {
            if ("ping".equals(method)) {
                link.send(Messages.result(m.get("id"), F.objectNode()));
            } else {
                LOG.debugf("upstream %s: refused a request of the shared child (no session to ask)", label);
                link.send(RpcError.of(ErrorCodes.METHOD_NOT_FOUND, "this server is shared by several sessions "
                        + "(\"shared\": true): its requests to a client cannot be routed to one").toResponse(m.get("id")));
            }
            return;
        }
        switch (method) {
            case "notifications/progress" -> {
                JsonNode t = Messages.params(m).get("progressToken");
                Routed r = t != null && t.isIntegralNumber() ? progress.get(t.asLong()) : null;
                if (r != null) {
                    ObjectNode out = m.deepCopy();
                    ((ObjectNode) out.get("params")).set("progressToken", r.token());
                    r.view().deliver(out);
                }
            }
            case "notifications/tools/list_changed", "notifications/prompts/list_changed",
                    "notifications/resources/list_changed" -> views.forEach(v -> v.deliver(m.deepCopy()));
            default -> LOG.debugf("upstream %s: dropped a notification of the shared child: it belongs to no one session",
                    label);
        }
    }

    /** Adds a session's view to the child {@code r}, if that child still runs (it may have died meanwhile). */
    private synchronized boolean attach(View v, Running r) {
        if (closed || current == null || !current.isDone() || current.isCompletedExceptionally() || current.join() != r) {
            return false;
        }
        views.add(v);
        return true;
    }

    private void childGone(UpstreamLink link, UpstreamException why) {
        synchronized (this) {
            boolean wasCurrent = current != null && current.isDone() && !current.isCompletedExceptionally()
                    && current.join().link() == link;
            if (!wasCurrent || closed) {
                return;
            }
            current = null;
            recovering = true;
        }
        health.failed(why);
        LOG.infof("upstream %s: the shared child is gone: %s (%s); the next call of any session starts another", label,
                why.detail(), why.reason().code());
        progress.clear();
        List.copyOf(views).forEach(v -> v.gone(why));
    }

    /** One session's link over the child. */
    private final class View implements UpstreamLink {
        private final Inbound inbound;
        private final CompletableFuture<UpstreamException> closed = new CompletableFuture<>();
        /** Ids of this session's requests in flight: the only ones it may cancel. */
        private final Set<Long> mine = ConcurrentHashMap.newKeySet();
        /** Task ids the child gave this session: the only ones it may address. */
        private final Set<String> tasks = ConcurrentHashMap.newKeySet();
        private volatile UpstreamLink link;

        View(Inbound inbound) {
            this.inbound = inbound;
        }

        @Override
        public CompletableFuture<Void> open() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public Pending request(String method, JsonNode params, RequestObserver related) {
            if (closed.isDone()) {
                return local(CompletableFuture.failedFuture(closed.join()));
            }
            if ("initialize".equals(method)) {
                // the child's own handshake, done once for every session: each gets its answer
                return local(running().thenApply(r -> {
                    if (!attach(this, r)) {
                        throw new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_EXITED,
                                "exited while a session was joining it");
                    }
                    link = r.link();
                    return Messages.result(LongNode.valueOf(-1), r.initializeResult().deepCopy());
                }));
            }
            ObjectNode p = params instanceof ObjectNode o ? o : F.objectNode();
            switch (method) {
                case "logging/setLevel" -> {
                    // one session must not change what the others are sent
                    return answered(Messages.result(LongNode.valueOf(-1), F.objectNode()));
                }
                case "resources/subscribe", "resources/unsubscribe", "tasks/list" -> {
                    return answered(RpcError.of(ErrorCodes.METHOD_NOT_FOUND, method + " is not offered by a server"
                            + " shared by several sessions (\"shared\": true)").toResponse(LongNode.valueOf(-1)));
                }
                case "tasks/get", "tasks/result", "tasks/cancel" -> {
                    if (!tasks.contains(p.path("taskId").asText(""))) {
                        return answered(RpcError.of(ErrorCodes.INVALID_PARAMS, "unknown task id")
                                .toResponse(LongNode.valueOf(-1)));
                    }
                }
                default -> {
                    // everything else is stateless by the operator's word
                }
            }
            UpstreamLink l = link;
            if (l == null) {
                return local(CompletableFuture.failedFuture(new UpstreamException(config.name(),
                        UpstreamException.Reason.UPSTREAM_UNAVAILABLE, "was never initialized")));
            }
            Long routed = null;
            JsonNode token = p.path("_meta").get("progressToken");
            if (token != null) {
                routed = tokens.incrementAndGet();
                p = p.deepCopy();
                ((ObjectNode) p.get("_meta")).put("progressToken", routed);
                progress.put(routed, new Routed(this, token));
            }
            Pending sent = l.request(method, p, null);
            mine.add(sent.id());
            Long route = routed;
            sent.response().whenComplete((r, t) -> {
                mine.remove(sent.id());
                if (route != null) {
                    progress.remove(route);
                }
                if (r != null && r.path("result").path("task").path("taskId").isTextual()) {
                    tasks.add(r.path("result").path("task").path("taskId").textValue());
                }
            });
            return sent;
        }

        @Override
        public void send(ObjectNode message) {
            UpstreamLink l = link;
            if (closed.isDone() || l == null) {
                return;
            }
            JsonNode id = Messages.params(message).get("requestId");
            if ("notifications/cancelled".equals(Messages.method(message)) && id != null && id.isIntegralNumber()
                    && mine.contains(id.asLong())) {
                l.send(message);
            } else {
                // initialized was the child's own; roots and answers to requests do not reach a shared child
                LOG.debugf("upstream %s: a session's message to the shared child was not passed on", label);
            }
        }

        @Override
        public void initialized(String version) {
            // the child was told once, when it started
        }

        @Override
        public CompletableFuture<UpstreamException> closed() {
            return closed;
        }

        @Override
        public void close() {
            views.remove(this);
            progress.values().removeIf(r -> r.view() == this);
            UpstreamLink l = link;
            if (l != null) {
                // the session is gone: its calls in flight are nobody's now
                for (Long id : List.copyOf(mine)) {
                    l.send(Messages.notification("notifications/cancelled", F.objectNode().put("requestId", id)
                            .put("reason", "the session ended")));
                }
            }
            closed.complete(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_EXITED, "was closed"));
        }

        void deliver(ObjectNode message) {
            if (!closed.isDone()) {
                inbound.onMessage(message);
            }
        }

        void gone(UpstreamException why) {
            views.remove(this);
            if (closed.complete(why)) {
                inbound.onClosed(why);
            }
        }

        /** An answer given here; nothing reaches the child (never "sent"). */
        private Pending answered(ObjectNode response) {
            return local(CompletableFuture.completedFuture(response));
        }

        private Pending local(CompletableFuture<ObjectNode> response) {
            return new Pending(-1, response, new CompletableFuture<>());
        }
    }
}
