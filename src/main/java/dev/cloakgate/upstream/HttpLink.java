package dev.cloakgate.upstream;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.upstream.oauth.OAuthFailure;
import dev.cloakgate.upstream.oauth.UpstreamAuthorizer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * An upstream reached over MCP streamable HTTP: POST per message (JSON or SSE answers), the upstream's own
 * session id, its GET stream for unprompted messages, and resumption with {@code Last-Event-ID} when a stream
 * drops before the answer arrived. Reading runs on Vert.x's event loop (Quarkus' own HTTP stack); each message
 * is parsed and passed on (judged, cloaked) on a {@link MessageLanes} worker, in order per response stream, and a
 * message over the limit is skipped as it arrives, never buffered.
 */
public final class HttpLink extends PostingLink {
    private static final Logger LOG = Logger.getLogger(HttpLink.class);
    private static final int RESUME_ATTEMPTS = 3;

    /** Connect timeout, and read timeout (the longest silence on a response before it fails). */
    public record Timeouts(Duration connect, Duration read) {
    }

    private final UpstreamConfig.Http config;
    private final String label;
    private final HttpClient client;
    private final Vertx vertx;
    private final JsonCodec codec;
    private final Inbound inbound;
    private final Timeouts timeouts;
    private final MessageLanes lanes;
    private final Oversized oversized;
    private final HttpBasics basics;
    private final Set<HttpClientResponse> open = ConcurrentHashMap.newKeySet();
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile String getStreamLastEventId;
    /** The upstream's OAuth client (issue 16), or null; and where its blocking work runs (never an event loop). */
    private final UpstreamAuthorizer auth;
    private final java.util.concurrent.Executor authWork;

    public HttpLink(UpstreamConfig.Http config, String label, HttpClient client, Vertx vertx, JsonCodec codec,
            Inbound inbound, Timeouts timeouts, MessageLimit limit, MessageLanes lanes) {
        this(config, label, client, vertx, codec, inbound, timeouts, limit, lanes, null, null);
    }

    public HttpLink(UpstreamConfig.Http config, String label, HttpClient client, Vertx vertx, JsonCodec codec,
            Inbound inbound, Timeouts timeouts, MessageLimit limit, MessageLanes lanes, UpstreamAuthorizer auth,
            java.util.concurrent.Executor authWork) {
        this.config = config;
        this.label = label;
        this.client = client;
        this.vertx = vertx;
        this.codec = codec;
        this.inbound = inbound;
        this.timeouts = timeouts;
        this.lanes = lanes;
        this.oversized = new Oversized(config.name(), label, limit, pending, this::send);
        this.auth = auth;
        this.authWork = authWork;
        this.basics = new HttpBasics(config, timeouts, oversized, auth);
    }

    @Override
    public CompletableFuture<Void> open() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    RequestObserver observer(RequestObserver related) {
        return related;
    }

    @Override
    public void initialized(String version) {
        this.protocolVersion = version;
        openGetStream(0);
    }

    @Override
    public void close() {
        String sid = sessionId;
        shutDown(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_EXITED, "was closed"));
        if (sid != null) {
            // ends the upstream's session; best effort, nobody waits for it
            client.request(options(HttpMethod.DELETE, timeouts.read())).compose(r -> r.send())
                    .onSuccess(HttpClientResponse::body);
        }
    }

    private RequestOptions options(HttpMethod method, Duration idle) {
        RequestOptions o = basics.options(method, idle);
        String version = protocolVersion;
        if (version != null) {
            o.putHeader("MCP-Protocol-Version", version);
        }
        String sid = sessionId;
        if (sid != null) {
            o.putHeader("Mcp-Session-Id", sid);
        }
        return o;
    }

    /** Completes when the exchange is over (for a request: its answer handled or failed). */
    @Override
    CompletableFuture<Void> post(ObjectNode message, PendingTable.Entry entry) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (auth == null || !auth.renewalDue()) {
            // sent at once, in the order posts are made
            post(message, entry, true, AUTH_ATTEMPTS, done);
        } else {
            // a token about to expire is refreshed first (blocking HTTP: off the event loop)
            CompletableFuture.runAsync(auth::beforeRequest, authWork)
                    .whenComplete((v, e) -> post(message, entry, true, AUTH_ATTEMPTS, done));
        }
        return done;
    }

    /** Sends after a 401/403 the OAuth client answered with a (new) token: a first token, a refresh, step-ups. */
    private static final int AUTH_ATTEMPTS = UpstreamAuthorizer.STEP_UP_LIMIT + 2;

    /**
     * The upstream refused the request's credentials: the OAuth client decides (off the event loop) whether it
     * goes again with a new token or fails with the client's stable code. A refused request did nothing
     * upstream, so sending it again is safe.
     */
    private void challenged(Exchange x, String sent, ObjectNode message, PendingTable.Entry entry, int attempts,
            CompletableFuture<Void> done) {
        CompletableFuture.runAsync(() -> {
            try {
                auth.challenged(x.status, x.wwwAuthenticate, sent);
            } catch (OAuthFailure f) {
                throw new java.util.concurrent.CompletionException(f);
            }
        }, authWork).whenComplete((v, e) -> {
            if (e == null) {
                post(message, entry, true, attempts - 1, done);
                return;
            }
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                    ? e.getCause() : e;
            fail(entry, cause instanceof OAuthFailure f ? basics.authFailure(f) : transportFailure(cause));
            done.complete(null);
        });
    }

    /**
     * One attempt. A POST that failed before a byte of it was written (a pooled connection the upstream had just
     * closed, or one being reset as another session ended) reached nobody, so it is sent once more on a fresh
     * connection; one that was written is never sent twice (the upstream may have acted on it).
     */
    private void post(ObjectNode message, PendingTable.Entry entry, boolean mayRetry, int authAttempts,
            CompletableFuture<Void> done) {
        RequestOptions o = options(HttpMethod.POST, timeouts.read())
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept", "application/json, text/event-stream");
        String sentAuthorization = o.getHeaders() == null ? null : o.getHeaders().get("Authorization");
        String sentToken = sentAuthorization == null ? null : sentAuthorization.substring("Bearer ".length());
        Exchange x = new Exchange(entry, false);
        boolean[] written = { false };
        client.request(o).compose(req -> send(req, codec.toBytes(message), entry, () -> written[0] = true))
                .compose(x::receive)
                .onComplete(ar -> {
                    if (ar.failed() && !written[0] && mayRetry && !closed.isDone()
                            && !(ar.cause() instanceof java.net.ConnectException)
                            && !ar.cause().getClass().getName().contains("Timeout")) {
                        LOG.debugf("upstream %s: a POST failed before it was written (%s); sending it again", label,
                                ar.cause().getClass().getSimpleName());
                        post(message, entry, false, authAttempts, done);
                        return;
                    }
                    if (ar.succeeded() && auth != null && (x.status == 401 || x.status == 403) && authAttempts > 0) {
                        challenged(x, sentToken, message, entry, authAttempts, done);
                        return;
                    }
                    if (ar.failed()) {
                        fail(entry, transportFailure(ar.cause()));
                    } else if (entry != null && !entry.response().isDone()) {
                        afterPost(x, entry);
                    } else if (entry == null && x.status >= 400 && x.status != 404) {
                        LOG.debugf("upstream %s: a notification or response was refused with HTTP %d", label, x.status);
                    }
                    done.complete(null);
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
            if (entry.related() != null) {
                // the upstream paused its answer (SEP-1699 polling): the client's answer streams meanwhile
                entry.related().streaming();
            }
            resume(entry, x.lastEventId, x.retryMillis, RESUME_ATTEMPTS);
        } else {
            fail(entry, new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                    "ended its response without answering the request"));
        }
    }

    /** Reconnects with GET and Last-Event-ID to receive the rest of a request's stream. */
    private void resume(PendingTable.Entry entry, String lastEventId, long retryMillis, int attemptsLeft) {
        if (attemptsLeft <= 0) {
            fail(entry, new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                    "did not answer after " + RESUME_ATTEMPTS + " stream resumptions"));
            return;
        }
        vertx.setTimer(Math.max(1, retryMillis), t -> {
            if (entry.response().isDone() || closed.isDone()) {
                return;
            }
            RequestOptions o = options(HttpMethod.GET, timeouts.read()).putHeader("Accept", "text/event-stream")
                    .putHeader("Last-Event-ID", lastEventId);
            Exchange x = new Exchange(entry, false);
            client.request(o).compose(req -> req.send()).compose(x::receive).onComplete(ar -> {
                if (ar.failed()) {
                    fail(entry, transportFailure(ar.cause()));
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
        });
    }

    /** The standalone GET stream: list_changed, resources/updated, logging and requests not tied to a call. */
    private void openGetStream(int failures) {
        if (closed.isDone()) {
            return;
        }
        // long-lived by design: no read timeout on it
        RequestOptions o = options(HttpMethod.GET, null).putHeader("Accept", "text/event-stream");
        String last = getStreamLastEventId;
        if (last != null) {
            o.putHeader("Last-Event-ID", last);
        }
        Exchange x = new Exchange(null, true);
        client.request(o).compose(req -> req.send()).compose(x::receive).onComplete(ar -> {
            if (closed.isDone()) {
                return;
            }
            if (ar.succeeded() && (x.status == 405 || x.status == 409 || x.status == 406)) {
                LOG.debugf("upstream %s: no standalone GET stream (HTTP %d)", label, x.status);
                return;
            }
            if (ar.succeeded() && x.status == 404 && sessionId != null) {
                expire();
                return;
            }
            boolean healthy = ar.succeeded() && x.status < 300 && x.sse;
            int nextFailures = healthy ? 0 : failures + 1;
            long delay = healthy ? Math.max(x.retryMillis, 1)
                    : Math.min(30_000L, 500L * (1L << Math.min(nextFailures, 6)));
            vertx.setTimer(delay, t -> openGetStream(nextFailures));
        });
    }

    private void dispatch(JsonNode msg, PendingTable.Entry relatedTo) {
        pending.dispatch(msg, label, o -> {
            if (relatedTo != null && relatedTo.related() != null) {
                relatedTo.related().related(o);
            } else {
                inbound.onMessage(o);
            }
        });
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

    private UpstreamException transportFailure(Throwable t) {
        return basics.failure(t);
    }

    private static long parseLength(String header) {
        if (header == null) {
            return -1;
        }
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void shutDown(UpstreamException why) {
        if (closed.complete(why)) {
            pending.failAll(why);
            // only a response whose end this link has not seen: a request that completed may already have handed
            // its pooled connection to another session's request, which a late reset would close (vert.x#6294).
            // The end handler removes its response first, so whichever removes it decides.
            for (HttpClientResponse r : java.util.List.copyOf(open)) {
                if (open.remove(r)) {
                    r.request().reset();
                }
            }
            inbound.onClosed(why);
        }
    }

    /** A JSON body over the limit; {@code bytes} of it were seen (its Content-Length, when it said). */
    static final class BodyTooLarge extends RuntimeException {
        final long bytes;

        BodyTooLarge(long bytes) {
            super("body too large", null, false, false);
            this.bytes = bytes;
        }
    }

    /** One HTTP exchange: what its headers said and how far its stream got. */
    private final class Exchange implements SseDecoder.Sink {
        final PendingTable.Entry entry;
        final boolean getStream;
        /** Its messages, handled in order off the event loop. */
        final OrderedWork work = new OrderedWork(lanes);
        HttpClientResponse response;
        volatile boolean paused;
        int status;
        boolean sse;
        /** The refusal's challenge (issue 16), for the OAuth client. */
        String wwwAuthenticate;
        String lastEventId;
        long retryMillis = 1000;

        Exchange(PendingTable.Entry entry, boolean getStream) {
            this.entry = entry;
            this.getStream = getStream;
        }

        /**
         * Reads the response: SSE events handed on as they arrive, a JSON body once complete; either is skipped,
         * never buffered, once over the limit. Completes when the last message read has been handled.
         */
        Future<Void> receive(HttpClientResponse resp) {
            status = resp.statusCode();
            wwwAuthenticate = resp.getHeader("www-authenticate");
            if (sessionId == null && resp.getHeader("mcp-session-id") != null) {
                sessionId = resp.getHeader("mcp-session-id");
            }
            String type = String.valueOf(resp.getHeader("content-type")).toLowerCase(Locale.ROOT);
            boolean ok = status >= 200 && status < 300;
            Promise<Void> done = Promise.promise();
            this.response = resp;
            open.add(resp);
            resp.exceptionHandler(t -> {
                open.remove(resp);
                work.whenDrained(() -> done.tryFail(t));
            });
            int limit = oversized.limit().bytes();
            boolean json = ok && type.startsWith("application/json");
            if (ok && type.startsWith("text/event-stream")) {
                sse = true;
                SseDecoder decoder = new SseDecoder(this, limit);
                resp.handler(chunk -> decoder.feed(chunk.getByteBuf().nioBuffer()));
            } else if (json) {
                long declared = parseLength(resp.getHeader("content-length"));
                if (declared > limit) {
                    // refused before a byte of it is read (failed first: the reset reports an error of its own)
                    done.tryFail(new BodyTooLarge(declared));
                    open.remove(resp);
                    resp.request().reset();
                    return done.future();
                }
                Buffer body = Buffer.buffer();
                resp.handler(chunk -> {
                    if (body.length() + chunk.length() > limit) {
                        done.tryFail(new BodyTooLarge(body.length() + (long) chunk.length()));
                        resp.request().reset();
                    } else if (!done.future().isComplete()) {
                        body.appendBuffer(chunk);
                    }
                });
                resp.endHandler(v -> {
                    open.remove(resp);
                    if (!done.future().isComplete()) {
                        byte[] bytes = body.getBytes();
                        work.submit(() -> message(bytes), bytes.length);
                    }
                    work.whenDrained(done::tryComplete);
                });
                return done.future();
            } else {
                resp.handler(chunk -> {
                    // a refusal's body is not ours to read
                });
            }
            resp.endHandler(v -> {
                open.remove(resp);
                work.whenDrained(done::tryComplete);
            });
            return done.future();
        }

        /** Parses one message and passes it on; runs on a {@link MessageLanes} worker. */
        void message(byte[] bytes) {
            try {
                dispatch(codec.parse(bytes), entry);
            } catch (JsonCodec.MalformedJson e) {
                LOG.debugf("upstream %s: ignored an unreadable message of %d bytes (%s)", label, bytes.length,
                        e.getMessage());
            } catch (RuntimeException e) {
                LOG.warnf("upstream %s: handling a message failed (%s)", label, e.getClass().getSimpleName());
            }
        }

        @Override
        public void event(String id, String event, byte[] data) {
            seen(id);
            if (data.length > 0 && "message".equals(event)
                    && work.submit(() -> message(data), data.length) > oversized.limit().bytes() && !paused) {
                // more than a limit's worth waits to be handled: read no further until it has been
                paused = true;
                response.pause();
                work.whenDrained(() -> {
                    paused = false;
                    response.resume();
                });
            }
        }

        @Override
        public void oversized(String id, String event, MessageScan scan) {
            seen(id);
            if ("message".equals(event)) {
                oversized.handle(scan);
            }
        }

        private void seen(String id) {
            if (id != null) {
                lastEventId = id;
                if (getStream) {
                    getStreamLastEventId = id;
                }
            }
        }

        @Override
        public void retry(long millis) {
            retryMillis = millis;
        }
    }
}
