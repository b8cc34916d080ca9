package dev.cloakgate.upstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.tenant.UpstreamConfig;

/**
 * An upstream reached over MCP streamable HTTP: POST per message (JSON or SSE answers), the upstream's own
 * session id, its GET stream for unprompted messages, and resumption with {@code Last-Event-ID} when a stream
 * drops before the answer arrived.
 */
public final class HttpLink implements UpstreamLink {
    private static final Logger LOG = Logger.getLogger(HttpLink.class);
    private static final int RESUME_ATTEMPTS = 3;

    /** Connect and read timeouts for one upstream. */
    public record Timeouts(Duration connect, Duration read) {
    }

    private final UpstreamConfig.Http config;
    private final String label;
    private final HttpClient client;
    private final JsonCodec codec;
    private final Inbound inbound;
    private final ScheduledExecutorService timer;
    private final Timeouts timeouts;
    private final PendingTable pending = new PendingTable();
    private final CompletableFuture<UpstreamException> closed = new CompletableFuture<>();
    private final Set<Body> openBodies = ConcurrentHashMap.newKeySet();
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile String getStreamLastEventId;
    /**
     * Each HTTP POST is its own exchange and the upstream may process them in any order; notifications and
     * responses are therefore chained, and a request waits for the ones sent before it (initialized must
     * reach the server before the first call, a cancellation before a retry).
     */
    private CompletableFuture<Void> ordered = CompletableFuture.completedFuture(null);

    public HttpLink(UpstreamConfig.Http config, String label, HttpClient client, JsonCodec codec, Inbound inbound,
            ScheduledExecutorService timer, Timeouts timeouts) {
        this.config = config;
        this.label = label;
        this.client = client;
        this.codec = codec;
        this.inbound = inbound;
        this.timer = timer;
        this.timeouts = timeouts;
    }

    @Override
    public CompletableFuture<Void> open() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Pending request(String method, JsonNode params, RequestObserver related) {
        PendingTable.Entry e = pending.open(related);
        if (closed.isDone()) {
            e.response().completeExceptionally(closed.join());
        } else {
            ObjectNode message = Messages.request(LongNode.valueOf(e.id()), method, params);
            CompletableFuture<Void> before;
            synchronized (this) {
                before = ordered;
            }
            if (before.isDone()) {
                post(message, e);
            } else {
                before.whenComplete((v, t) -> post(message, e));
            }
        }
        return new Pending(e.id(), e.response());
    }

    @Override
    public void send(ObjectNode message) {
        if (closed.isDone()) {
            return;
        }
        synchronized (this) {
            ordered = ordered.handle((v, t) -> null).thenCompose(v -> post(message, null));
        }
    }

    @Override
    public void initialized(String version) {
        this.protocolVersion = version;
        openGetStream(0);
    }

    @Override
    public CompletableFuture<UpstreamException> closed() {
        return closed;
    }

    @Override
    public void close() {
        String sid = sessionId;
        shutDown(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_EXITED, "was closed"));
        if (sid != null) {
            // ends the upstream's session; best effort, nobody waits for it
            HttpRequest del = base().header("Mcp-Session-Id", sid).DELETE().build();
            client.sendAsync(del, HttpResponse.BodyHandlers.discarding())
                    .exceptionally(t -> null);
        }
    }

    private HttpRequest.Builder base() {
        HttpRequest.Builder b = HttpRequest.newBuilder(config.url()).timeout(timeouts.read());
        for (Map.Entry<String, String> h : config.headers().entrySet()) {
            b.header(h.getKey(), h.getValue());
        }
        String version = protocolVersion;
        if (version != null) {
            b.header("MCP-Protocol-Version", version);
        }
        return b;
    }

    /** Completes when the exchange is over (for a request: its answer handled or failed). */
    private CompletableFuture<Void> post(ObjectNode message, PendingTable.Entry entry) {
        HttpRequest.Builder b = base()
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(codec.toBytes(message)));
        String sid = sessionId;
        if (sid != null) {
            b.header("Mcp-Session-Id", sid);
        }
        Exchange x = new Exchange(entry);
        return client.sendAsync(b.build(), x::handler).handle((resp, err) -> {
            if (err != null) {
                fail(entry, transportFailure(err));
            } else if (entry != null && !entry.response().isDone()) {
                afterPost(x, entry);
            } else if (entry == null && x.status >= 400 && x.status != 404) {
                LOG.debugf("upstream %s: a notification or response was refused with HTTP %d", label, x.status);
            }
            return null;
        });
    }

    /** The POST ended without answering: resume its stream if it had one, else report what went wrong. */
    private void afterPost(Exchange x, PendingTable.Entry entry) {
        if (x.status == 404 && sessionId != null) {
            expire();
        } else if (x.status >= 300) {
            fail(entry, new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_HTTP_ERROR,
                    "answered HTTP " + x.status));
        } else if (x.sse && x.lastEventId != null) {
            resume(entry, x.lastEventId, x.retryMillis, RESUME_ATTEMPTS);
        } else {
            fail(entry, new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                    "ended its response without answering the request"));
        }
    }

    /** Reconnects with GET and Last-Event-ID to receive the rest of a request's stream (SEP-1699 polling). */
    private void resume(PendingTable.Entry entry, String lastEventId, long retryMillis, int attemptsLeft) {
        if (attemptsLeft <= 0) {
            fail(entry, new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                    "did not answer after " + RESUME_ATTEMPTS + " stream resumptions"));
            return;
        }
        timer.schedule(() -> {
            if (entry.response().isDone() || closed.isDone()) {
                return;
            }
            HttpRequest.Builder b = base().header("Accept", "text/event-stream").header("Last-Event-ID", lastEventId)
                    .GET();
            String sid = sessionId;
            if (sid != null) {
                b.header("Mcp-Session-Id", sid);
            }
            Exchange x = new Exchange(entry);
            client.sendAsync(b.build(), x::handler).whenComplete((resp, err) -> {
                if (err != null) {
                    fail(entry, transportFailure(err));
                } else if (!entry.response().isDone()) {
                    if (x.status == 404 && sessionId != null) {
                        expire();
                    } else if (x.status >= 300) {
                        fail(entry, new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_HTTP_ERROR,
                                "answered HTTP " + x.status + " to stream resumption"));
                    } else {
                        resume(entry, x.lastEventId == null ? lastEventId : x.lastEventId, x.retryMillis,
                                attemptsLeft - 1);
                    }
                }
            });
        }, Math.max(0, retryMillis), TimeUnit.MILLISECONDS);
    }

    /** The standalone GET stream: list_changed, resources/updated, logging and requests not tied to a call. */
    private void openGetStream(int failures) {
        if (closed.isDone()) {
            return;
        }
        HttpRequest.Builder b = base().header("Accept", "text/event-stream").GET();
        String sid = sessionId;
        if (sid != null) {
            b.header("Mcp-Session-Id", sid);
        }
        String last = getStreamLastEventId;
        if (last != null) {
            b.header("Last-Event-ID", last);
        }
        // the GET stream is long-lived: no read timeout on it
        HttpRequest req = b.timeout(Duration.ofDays(365)).build();
        Exchange x = new Exchange(null);
        x.getStream = true;
        client.sendAsync(req, x::handler).whenComplete((resp, err) -> {
            if (closed.isDone()) {
                return;
            }
            if (err == null && (x.status == 405 || x.status == 409 || x.status == 406)) {
                LOG.debugf("upstream %s: no standalone GET stream (HTTP %d)", label, x.status);
                return;
            }
            if (err == null && x.status == 404 && sessionId != null) {
                expire();
                return;
            }
            boolean healthy = err == null && x.status < 300 && x.sse;
            int nextFailures = healthy ? 0 : failures + 1;
            long delay = healthy ? Math.max(x.retryMillis, 0)
                    : Math.min(30_000L, 500L * (1L << Math.min(nextFailures, 6)));
            timer.schedule(() -> openGetStream(nextFailures), delay, TimeUnit.MILLISECONDS);
        });
    }

    private void dispatch(JsonNode msg, PendingTable.Entry relatedTo) {
        if (!(msg instanceof ObjectNode o)) {
            return;
        }
        if (Messages.isResponse(o)) {
            if (!pending.complete(o)) {
                LOG.debugf("upstream %s: response to an unknown or finished request", label);
            }
        } else if (o.has("method")) {
            if (relatedTo != null && relatedTo.related() != null) {
                relatedTo.related().related(o);
            } else {
                inbound.onMessage(o);
            }
        }
    }

    private void expire() {
        shutDown(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_SESSION_EXPIRED,
                "ended its session"));
    }

    private void fail(PendingTable.Entry entry, UpstreamException why) {
        if (entry != null) {
            entry.response().completeExceptionally(why);
        }
    }

    private UpstreamException transportFailure(Throwable err) {
        Throwable t = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
        if (t instanceof UpstreamException u) {
            return u;
        }
        if (t instanceof HttpConnectTimeoutException) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                    "did not accept a connection within " + timeouts.connect().toMillis() + " ms");
        }
        if (t instanceof HttpTimeoutException) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_TIMEOUT,
                    "did not start answering within " + timeouts.read().toMillis() + " ms");
        }
        if (t instanceof ConnectException) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                    "is unreachable (connection refused)");
        }
        if (t instanceof SseDecoder.EventTooLarge || t instanceof BodyTooLarge) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                    "sent a message over the size limit");
        }
        if (t instanceof IOException) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                    "connection failed (" + t.getClass().getSimpleName() + ")");
        }
        return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                "failed (" + t.getClass().getSimpleName() + ")");
    }

    private void shutDown(UpstreamException why) {
        if (closed.complete(why)) {
            pending.failAll(why);
            for (Body b : openBodies) {
                b.cancel();
            }
            inbound.onClosed(why);
        }
    }

    static final class BodyTooLarge extends RuntimeException {
        BodyTooLarge() {
            super("body too large", null, false, false);
        }
    }

    /** One HTTP exchange: what its headers said and how far its stream got. */
    private final class Exchange {
        final PendingTable.Entry entry;
        volatile int status;
        volatile boolean sse;
        volatile String lastEventId;
        volatile long retryMillis = 1000;
        boolean getStream;

        Exchange(PendingTable.Entry entry) {
            this.entry = entry;
        }

        HttpResponse.BodySubscriber<Void> handler(HttpResponse.ResponseInfo info) {
            status = info.statusCode();
            if (sessionId == null) {
                info.headers().firstValue("mcp-session-id").ifPresent(s -> sessionId = s);
            }
            String type = info.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT);
            if (status >= 200 && status < 300 && type.startsWith("text/event-stream")) {
                sse = true;
                if (entry != null && entry.related() != null) {
                    entry.related().streaming();
                }
                return new Body(this, true);
            }
            if (status >= 200 && status < 300 && type.startsWith("application/json")) {
                return new Body(this, false);
            }
            return HttpResponse.BodySubscribers.replacing(null);
        }

        void message(byte[] bytes, int length) {
            try {
                dispatch(codec.parse(bytes, 0, length), entry);
            } catch (JsonCodec.MalformedJson e) {
                LOG.debugf("upstream %s: ignored an unreadable message of %d bytes (%s)", label, length, e.getMessage());
            }
        }
    }

    /** Streams a response body: SSE events are dispatched as they arrive, a JSON body once complete. */
    private final class Body implements HttpResponse.BodySubscriber<Void>, SseDecoder.Sink {
        private final Exchange exchange;
        private final SseDecoder decoder;
        private final ByteArrayOutputStream json;
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private volatile Flow.Subscription subscription;

        Body(Exchange exchange, boolean sse) {
            this.exchange = exchange;
            this.decoder = sse ? new SseDecoder(this, codec.limits().maxBytes()) : null;
            this.json = sse ? null : new ByteArrayOutputStream();
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            openBodies.add(this);
            if (closed.isDone()) {
                cancel();
                return;
            }
            s.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            try {
                for (ByteBuffer b : items) {
                    if (decoder != null) {
                        decoder.feed(b);
                    } else {
                        if (json.size() + b.remaining() > codec.limits().maxBytes()) {
                            throw new BodyTooLarge();
                        }
                        byte[] chunk = new byte[b.remaining()];
                        b.get(chunk);
                        json.write(chunk, 0, chunk.length);
                    }
                }
                subscription.request(1);
            } catch (RuntimeException e) {
                subscription.cancel();
                finish(e);
            }
        }

        @Override
        public void onError(Throwable t) {
            finish(t);
        }

        @Override
        public void onComplete() {
            if (json != null) {
                byte[] all = json.toByteArray();
                exchange.message(all, all.length);
            }
            finish(null);
        }

        @Override
        public CompletionStage<Void> getBody() {
            return done;
        }

        @Override
        public void event(String id, String event, String data) {
            if (id != null) {
                exchange.lastEventId = id;
                if (exchange.getStream) {
                    getStreamLastEventId = id;
                }
            }
            if (!data.isEmpty() && "message".equals(event)) {
                byte[] bytes = data.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.message(bytes, bytes.length);
            }
        }

        @Override
        public void retry(long millis) {
            exchange.retryMillis = millis;
        }

        void cancel() {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
            finish(null);
        }

        private void finish(Throwable t) {
            openBodies.remove(this);
            if (t == null) {
                done.complete(null);
            } else {
                done.completeExceptionally(t);
            }
        }
    }
}
