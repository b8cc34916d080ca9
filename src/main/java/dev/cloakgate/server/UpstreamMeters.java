package dev.cloakgate.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.upstream.LinkFactory;
import dev.cloakgate.upstream.MessageLimit;
import dev.cloakgate.upstream.RequestObserver;
import dev.cloakgate.upstream.UpstreamException;
import dev.cloakgate.upstream.UpstreamLink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * What the gateway meets with each upstream, as a decorator on the links sessions open (the upstream package stays
 * free of metrics): every request's time until answered ({@code cloakgate_upstream_request_seconds}), links
 * started and restarted, and failures by phase and reason code. Labels are configuration (tenant and upstream
 * names), known methods and the fixed {@code data.reason} codes: never upstream or client text.
 */
final class UpstreamMeters implements LinkFactory {
    static final String REQUEST = "cloakgate.upstream.request";
    static final String STARTS = "cloakgate.upstream.starts";
    static final String RESTARTS = "cloakgate.upstream.restarts";
    static final String FAILURES = "cloakgate.upstream.failures";

    /** When a failure happened: starting (process, connection or handshake), while up (the link ended), or a request. */
    enum Phase {
        START, RUNNING, REQUEST;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final LinkFactory links;
    private final MeterRegistry metrics;
    private final Latency.Histogram requests;

    UpstreamMeters(LinkFactory links, MeterRegistry metrics) {
        this.links = links;
        this.metrics = metrics;
        this.requests = new Latency.Histogram(metrics, REQUEST, "requests the gateway sent an upstream, until answered");
    }

    /**
     * Each configured upstream's start and restart counters exist from the start at 0, so increase() sees the first
     * one; failures appear with their first (phase, reason): all of them at 0 would be 24 series per upstream.
     */
    void register(String tenant, String upstream) {
        Tags tags = Tags.of("tenant", tenant, "upstream", upstream);
        metrics.counter(STARTS, tags);
        metrics.counter(RESTARTS, tags);
    }

    @Override
    public UpstreamLink create(UpstreamConfig config, String label, MessageLimit limit, UpstreamLink.Inbound inbound) {
        return timed(links.create(config, label, limit, inbound), config, label, STARTS);
    }

    @Override
    public UpstreamLink recreate(UpstreamConfig config, String label, MessageLimit limit, UpstreamLink.Inbound inbound) {
        return timed(links.recreate(config, label, limit, inbound), config, label, RESTARTS);
    }

    private UpstreamLink timed(UpstreamLink link, UpstreamConfig config, String label, String counted) {
        // the session labels a link "tenant/upstream" (a tenant name has no '/'): once per link, not per request
        int slash = label.indexOf('/');
        Tags tags = Tags.of("tenant", slash < 0 ? label : label.substring(0, slash), "upstream", config.name());
        metrics.counter(counted, tags).increment();
        return new Metered(link, tags, requests.scope(label, k -> tags));
    }

    private final class Metered implements UpstreamLink {
        private final UpstreamLink link;
        private final Tags tags;
        private final Latency.Scope timers;
        /** The gateway closed this link: what fails after that is not the upstream's failure. */
        private final AtomicBoolean closing = new AtomicBoolean();
        /** The start failed or the link ended: counted once, whichever path sees it first. */
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile CompletableFuture<ObjectNode> handshake;

        Metered(UpstreamLink link, Tags tags, Latency.Scope timers) {
            this.link = link;
            this.tags = tags;
            this.timers = timers;
            link.closed().thenAccept(why -> {
                if (!closing.get() && handshakeAnswered()) {
                    end(Phase.RUNNING, why);
                }
            });
        }

        @Override
        public CompletableFuture<Void> open() {
            CompletableFuture<Void> f = link.open();
            f.whenComplete((v, t) -> {
                if (t != null) {
                    end(Phase.START, t);
                }
            });
            return f;
        }

        @Override
        public Pending request(String method, JsonNode params, RequestObserver related) {
            long t0 = System.nanoTime();
            Pending p = link.request(method, params, related);
            boolean first = handshake == null && "initialize".equals(method);
            if (first) {
                handshake = p.response();
            }
            p.response().whenComplete((r, t) -> {
                timers.record(method, System.nanoTime() - t0);
                if (first && (t != null || r.has("error"))) {
                    end(Phase.START, t);
                } else if (t != null && !closing.get()) {
                    fail(Phase.REQUEST, t);
                }
            });
            return p;
        }

        private boolean handshakeAnswered() {
            CompletableFuture<ObjectNode> h = handshake;
            return h != null && h.isDone() && !h.isCompletedExceptionally();
        }

        private void end(Phase phase, Throwable t) {
            if (ended.compareAndSet(false, true)) {
                fail(phase, t);
            }
        }

        private void fail(Phase phase, Throwable t) {
            Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
            // an upstream's error answer to initialize, or a cause that is not the upstream's, is a protocol error
            String reason = c == null ? UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR.code()
                    : c instanceof UpstreamException u ? u.reason().code()
                    : c instanceof java.util.concurrent.TimeoutException ? UpstreamException.Reason.UPSTREAM_TIMEOUT.code()
                    : UpstreamException.Reason.UPSTREAM_UNAVAILABLE.code();
            metrics.counter(FAILURES, tags.and("phase", phase.label(), "reason", reason)).increment();
        }

        @Override
        public void send(ObjectNode message) {
            link.send(message);
        }

        @Override
        public void initialized(String protocolVersion) {
            link.initialized(protocolVersion);
        }

        @Override
        public CompletableFuture<UpstreamException> closed() {
            return link.closed();
        }

        @Override
        public void close() {
            CompletableFuture<ObjectNode> h = handshake;
            if (h != null && !h.isDone()) {
                // the gateway gives up on a handshake only when it timed out (a session's close waits for it)
                end(Phase.START, new java.util.concurrent.TimeoutException());
            }
            closing.set(true);
            link.close();
        }
    }
}
