package dev.cloakgate.upstream;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.tenant.UpstreamConfig;

/**
 * One upstream server as a gateway session sees it: the current link, the handshake that opens it, and
 * re-establishment with backoff after the link dies. Every request gets an answer or an error naming the
 * upstream within the request timeout, never a hang.
 */
public final class Upstream {
    private static final Logger LOG = Logger.getLogger(Upstream.class);

    /** Time limits for one upstream, and the largest message it may send. */
    public record Limits(Duration initialize, Duration request, Duration idle, MessageLimit messages) {
    }

    /** What the session hears from this upstream. */
    public interface Listener {
        void onMessage(Upstream from, ObjectNode message);

        void onLinkLost(Upstream from, UpstreamException why);
    }

    /** A request in flight; {@link #id()} is known once the link has sent it (-1 before). */
    public static final class Call {
        private final CompletableFuture<ObjectNode> response = new CompletableFuture<>();
        private final CompletableFuture<Void> sent = new CompletableFuture<>();
        private volatile UpstreamLink link;
        private volatile long id = -1;

        public CompletableFuture<ObjectNode> response() {
            return response;
        }

        /** Completes once the request was written to the upstream; never when it could not be. */
        public CompletableFuture<Void> sent() {
            return sent;
        }

        public long id() {
            return id;
        }

        UpstreamLink link() {
            return link;
        }
    }

    private final UpstreamConfig config;
    private final String label;
    private final LinkFactory factory;
    private final Listener listener;
    private final ScheduledExecutorService timer;
    private final Limits limits;
    private final Backoff backoff;
    private final UpstreamHealth health;
    /** The link failed or was lost since it was last up: the next success is a restart. */
    private boolean recovering;
    private ObjectNode initializeParams;
    private String requiredVersion;
    private boolean clientInitialized;
    private CompletableFuture<UpstreamLink> current;
    private UpstreamLink initializedLink;
    private UpstreamException lastFailure;
    private volatile ObjectNode initializeResult;
    private volatile long lastUsedNanos = System.nanoTime();
    private volatile boolean closed;

    /** @param health where this upstream's establishments and failures are reported */
    public Upstream(UpstreamConfig config, String label, LinkFactory factory, Listener listener,
            ScheduledExecutorService timer, Limits limits, Backoff backoff, UpstreamHealth health) {
        this.config = config;
        this.label = label;
        this.factory = factory;
        this.listener = listener;
        this.timer = timer;
        this.limits = limits;
        this.backoff = backoff;
        this.health = health;
    }

    public String name() {
        return config.name();
    }

    public UpstreamConfig config() {
        return config;
    }

    /** True when the transport ties each message to its request (streamable HTTP); stdio and HTTP+SSE do not. */
    public boolean tellsAssociation() {
        return config instanceof UpstreamConfig.Http h && h.transport() == UpstreamConfig.HttpTransport.STREAMABLE_HTTP;
    }

    /** The upstream's answer to the latest handshake (capabilities, serverInfo, protocolVersion). */
    public ObjectNode initializeResult() {
        return initializeResult;
    }

    /**
     * The first handshake, with the client's initialize params. Completes with the upstream's result; the
     * session checks versions across upstreams and then calls {@link #requireVersion}.
     */
    public synchronized CompletableFuture<ObjectNode> initialize(ObjectNode params) {
        this.initializeParams = params.deepCopy();
        return link().thenApply(l -> initializeResult);
    }

    /** Pins the protocol version; a re-established link that negotiates another one is refused. */
    public synchronized void requireVersion(String version) {
        this.requiredVersion = version;
    }

    /** The client finished its handshake: pass {@code notifications/initialized} on (once per link). */
    public void clientInitialized() {
        CompletableFuture<UpstreamLink> f;
        synchronized (this) {
            clientInitialized = true;
            f = current;
        }
        if (f != null && f.isDone() && !f.isCompletedExceptionally()) {
            UpstreamLink l = f.join();
            sendInitialized(l);
        }
    }

    private void sendInitialized(UpstreamLink l) {
        synchronized (this) {
            if (initializedLink == l) {
                return;
            }
            initializedLink = l;
        }
        l.send(Messages.notification("notifications/initialized", null));
        l.initialized(initializeResult.path("protocolVersion").asText());
    }

    /** Sends a request, (re-)establishing the link first when needed. */
    public Call call(String method, JsonNode params, RequestObserver related) {
        Call call = new Call();
        touch();
        link().whenComplete((l, t) -> {
            if (t != null) {
                call.response.completeExceptionally(unwrap(t));
                return;
            }
            UpstreamLink.Pending p = l.request(method, params, related);
            call.link = l;
            call.id = p.id();
            p.sent().thenRun(() -> call.sent.complete(null));
            p.response().whenComplete((r, u) -> {
                if (u != null) {
                    call.response.completeExceptionally(unwrap(u));
                } else {
                    call.response.complete(r);
                }
            });
        });
        long timeoutMs = limits.request().toMillis();
        var timeout = timer.schedule(() -> {
            if (call.response.completeExceptionally(new UpstreamException(config.name(),
                    UpstreamException.Reason.UPSTREAM_TIMEOUT, "did not answer " + method + " within " + timeoutMs + " ms"))) {
                cancel(call, "timeout");
            }
        }, timeoutMs, TimeUnit.MILLISECONDS);
        call.response.whenComplete((r, t) -> {
            timeout.cancel(false);
            touch();
        });
        return call;
    }

    /** Tells the upstream a request was cancelled (by the client, or by the gateway's timeout). */
    public void cancel(Call call, String reason) {
        UpstreamLink l = call.link();
        if (l != null && call.id() >= 0) {
            ObjectNode p = JsonNodeFactory.instance.objectNode();
            p.put("requestId", call.id());
            if (reason != null) {
                p.put("reason", reason);
            }
            l.send(Messages.notification("notifications/cancelled", p));
        }
    }

    /**
     * Sends a notification or a response over the live link; dropped when there is none (it would be stale).
     * Returns whether it was handed to a link.
     */
    public boolean send(ObjectNode message) {
        CompletableFuture<UpstreamLink> f;
        synchronized (this) {
            f = current;
        }
        if (f != null && f.isDone() && !f.isCompletedExceptionally()) {
            touch();
            f.join().send(message);
            return true;
        }
        LOG.debugf("upstream %s: dropped a %s with no live link", label, Messages.method(message) == null
                ? "response" : Messages.method(message));
        return false;
    }

    /** True when a link is up (or coming up). */
    public synchronized boolean connected() {
        return current != null && (!current.isDone() || !current.isCompletedExceptionally());
    }

    public long idleNanos() {
        return System.nanoTime() - lastUsedNanos;
    }

    /** Ends the link; a later call re-establishes it (used for idle stdio children). */
    public void release() {
        CompletableFuture<UpstreamLink> f;
        synchronized (this) {
            f = current;
            current = null;
        }
        if (f != null) {
            f.thenAccept(UpstreamLink::close);
        }
    }

    public void close() {
        closed = true;
        release();
    }

    private void touch() {
        lastUsedNanos = System.nanoTime();
    }

    private synchronized CompletableFuture<UpstreamLink> link() {
        if (closed) {
            return CompletableFuture.failedFuture(new UpstreamException(config.name(),
                    UpstreamException.Reason.UPSTREAM_UNAVAILABLE, "is closed with its session"));
        }
        if (current != null && !(current.isDone() && current.isCompletedExceptionally())) {
            return current;
        }
        if (initializeParams == null) {
            return CompletableFuture.failedFuture(new UpstreamException(config.name(),
                    UpstreamException.Reason.UPSTREAM_UNAVAILABLE, "was never initialized"));
        }
        long wait = backoff.remainingNanos();
        if (wait > 0) {
            return CompletableFuture.failedFuture(LinkSetup.backingOff(config.name(), wait, lastFailure));
        }
        current = establish();
        return current;
    }

    private CompletableFuture<UpstreamLink> establish() {
        CompletableFuture<UpstreamLink> self = new CompletableFuture<>();
        UpstreamLink.Inbound inbound = new UpstreamLink.Inbound() {
            @Override
            public void onMessage(ObjectNode message) {
                touch();
                listener.onMessage(Upstream.this, message);
            }

            @Override
            public void onClosed(UpstreamException why) {
                self.thenAccept(l -> linkClosed(l, why));
            }
        };
        // a handshake answered before means this session had the upstream up: this link is a restart
        UpstreamLink link = initializeResult == null ? factory.create(config, label, limits.messages(), inbound)
                : factory.recreate(config, label, limits.messages(), inbound);
        self.complete(link);
        ObjectNode params;
        String pinned;
        synchronized (this) {
            params = initializeParams;
            pinned = requiredVersion;
        }
        CompletableFuture<UpstreamLink> result = link.open()
                .thenCompose(v -> link.request("initialize", params, null).response())
                .orTimeout(limits.initialize().toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(response -> {
                    ObjectNode result0 = LinkSetup.initializeResult(config.name(), response);
                    String version = result0.path("protocolVersion").asText();
                    if (pinned != null && !pinned.equals(version)) {
                        throw new UpstreamException(config.name(), UpstreamException.Reason.PROTOCOL_VERSION_MISMATCH,
                                "negotiated protocol version " + version + " after reconnecting; the session uses " + pinned);
                    }
                    initializeResult = result0;
                    return link;
                });
        return result.handle((l, t) -> {
            if (t != null) {
                UpstreamException why = LinkSetup.failure(config.name(), t, limits.initialize());
                link.close();
                synchronized (this) {
                    lastFailure = why;
                    recovering = true;
                }
                backoff.failed();
                health.failed(why);
                if (config instanceof UpstreamConfig.Stdio s && s.shared()) {
                    // a view of a shared child: the child's own setup said why, once for every session
                    LOG.debugf("upstream %s: %s", label, why.getMessage());
                } else {
                    LinkSetup.logFailure(label, config instanceof UpstreamConfig.Stdio, health, why);
                }
                throw why;
            }
            backoff.succeeded();
            boolean restart;
            synchronized (this) {
                restart = recovering;
                recovering = false;
            }
            health.up(restart);
            boolean sendNow;
            synchronized (this) {
                sendNow = clientInitialized;
            }
            if (sendNow) {
                sendInitialized(l);
            }
            return l;
        });
    }

    private void linkClosed(UpstreamLink link, UpstreamException why) {
        boolean wasCurrent;
        synchronized (this) {
            wasCurrent = current != null && current.isDone() && !current.isCompletedExceptionally()
                    && current.join() == link;
            if (wasCurrent) {
                current = null;
            }
        }
        if (wasCurrent && !closed) {
            synchronized (this) {
                recovering = true;
            }
            health.failed(why);
            listener.onLinkLost(this, why);
        }
    }

    private UpstreamException unwrap(Throwable t) {
        return LinkSetup.failure(config.name(), t, null);
    }
}
