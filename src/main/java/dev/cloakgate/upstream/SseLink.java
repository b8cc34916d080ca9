package dev.cloakgate.upstream;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.tenant.UpstreamConfig;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * An upstream reached over the HTTP+SSE transport of MCP 2024-11-05, which many servers still speak only: a GET
 * opens an event stream whose {@code endpoint} event names where messages are POSTed, and every answer and every
 * message of the server arrives on that stream. The stream is the session: when it ends the link is gone, and the
 * upstream is re-established (a new stream, a new handshake) on next use, with backoff.
 *
 * <p>The endpoint is resolved against the configured URL and must be on its origin (scheme, host, port); the POSTs
 * are addressed to that origin from the tenant file, taking only a path and query from the server, so a server
 * cannot send the gateway's messages, with the tenant's headers, anywhere else. Messages are judged for size while
 * they stream, as on streamable HTTP, and handled in order off the event loop; the stream stops being read while
 * more than a limit's worth waits.
 */
public final class SseLink extends PostingLink {
    private static final Logger LOG = Logger.getLogger(SseLink.class);
    /** Longer than any endpoint a server needs to name. */
    private static final int ENDPOINT_MAX = 2048;

    private final UpstreamConfig.Http config;
    private final String label;
    private final HttpClient client;
    private final JsonCodec codec;
    private final Inbound inbound;
    private final HttpLink.Timeouts timeouts;
    private final Oversized oversized;
    private final HttpBasics basics;
    private final OrderedWork work;
    private final CompletableFuture<Void> opened = new CompletableFuture<>();
    private volatile HttpClientResponse stream;
    /** Path and query on the configured origin; null until the server named it. */
    private volatile String endpoint;
    private volatile boolean paused;

    public SseLink(UpstreamConfig.Http config, String label, HttpClient client, JsonCodec codec, Inbound inbound,
            HttpLink.Timeouts timeouts, MessageLimit limit, MessageLanes lanes) {
        this.config = config;
        this.label = label;
        this.client = client;
        this.codec = codec;
        this.inbound = inbound;
        this.timeouts = timeouts;
        this.oversized = new Oversized(config.name(), label, limit, pending, this::send);
        this.basics = new HttpBasics(config, timeouts, oversized, null);
        this.work = new OrderedWork(lanes);
    }

    /** Opens the event stream; completes once the server named its endpoint. */
    @Override
    public CompletableFuture<Void> open() {
        // long-lived by design: no read timeout on it (the handshake's own timeout bounds the wait for the endpoint)
        RequestOptions o = basics.options(HttpMethod.GET, null).putHeader("Accept", "text/event-stream");
        client.request(o).compose(req -> req.send()).onComplete(ar -> {
            if (ar.failed()) {
                shutDown(basics.failure(ar.cause()));
            } else {
                receive(ar.result());
            }
        });
        return opened;
    }

    private void receive(HttpClientResponse resp) {
        if (closed.isDone()) {
            resp.request().reset();
            return;
        }
        int status = resp.statusCode();
        String type = String.valueOf(resp.getHeader("content-type")).toLowerCase(Locale.ROOT);
        if (status != 200 || !type.startsWith("text/event-stream")) {
            resp.request().reset();
            shutDown(status != 200
                    ? new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_HTTP_ERROR,
                            "answered HTTP " + status + " to the GET that opens its event stream")
                    : new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                            "did not answer the GET that opens its event stream with text/event-stream"));
            return;
        }
        stream = resp;
        SseDecoder decoder = new SseDecoder(new Events(), oversized.limit().bytes());
        resp.handler(chunk -> decoder.feed(chunk.getByteBuf().nioBuffer()));
        resp.exceptionHandler(t -> shutDown(basics.failure(t)));
        resp.endHandler(v -> work.whenDrained(() -> shutDown(new UpstreamException(config.name(),
                UpstreamException.Reason.UPSTREAM_SESSION_EXPIRED,
                "ended its event stream (on the HTTP+SSE transport, its session)"))));
    }

    /**
     * The endpoint an {@code endpoint} event names, as a path and query on {@code base}'s origin; null when it is
     * not a plain URL on that origin (another scheme, host or port, user info, spaces, controls, backslashes,
     * non-ASCII: anything a parser might read another way is refused, not interpreted).
     */
    static String sameOrigin(URI base, String data) {
        if (data.isEmpty() || data.length() > ENDPOINT_MAX) {
            return null;
        }
        for (int i = 0; i < data.length(); i++) {
            char c = data.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '\\') {
                return null;
            }
        }
        URI resolved;
        try {
            resolved = base.resolve(new URI(data));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
        if (resolved.getScheme() == null || !resolved.getScheme().equalsIgnoreCase(base.getScheme())
                || resolved.getRawUserInfo() != null || resolved.getHost() == null
                || !resolved.getHost().equalsIgnoreCase(base.getHost())
                || HttpBasics.port(resolved) != HttpBasics.port(base)) {
            return null;
        }
        String path = resolved.getRawPath() == null || resolved.getRawPath().isEmpty() ? "/" : resolved.getRawPath();
        if (!path.startsWith("/")) {
            return null;
        }
        return resolved.getRawQuery() == null ? path : path + "?" + resolved.getRawQuery();
    }

    @Override
    RequestObserver observer(RequestObserver related) {
        // this transport ties no message to a request: related messages arrive through Inbound
        return null;
    }


    /** POSTs one message; completes when the server acknowledged it (its answer comes on the stream). */
    @Override
    CompletableFuture<Void> post(ObjectNode message, PendingTable.Entry entry) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        String to = endpoint;
        if (to == null || closed.isDone()) {
            fail(entry, closed.isDone() ? closed.join() : new UpstreamException(config.name(),
                    UpstreamException.Reason.UPSTREAM_UNAVAILABLE, "has not named its message endpoint"));
            done.complete(null);
            return done;
        }
        RequestOptions o = basics.options(HttpMethod.POST, to, timeouts.read()).putHeader("Content-Type",
                "application/json");
        client.request(o).compose(req -> send(req, codec.toBytes(message), entry)).onComplete(ar -> {
            if (ar.failed()) {
                fail(entry, basics.failure(ar.cause()));
            } else {
                HttpClientResponse r = ar.result();
                // an acknowledgement ("Accepted"); its body is not ours to read
                r.handler(b -> {
                });
                if (r.statusCode() >= 300) {
                    if (entry != null) {
                        fail(entry, new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_HTTP_ERROR,
                                "answered HTTP " + r.statusCode() + " to a POSTed message"));
                    } else {
                        LOG.debugf("upstream %s: a notification or response was refused with HTTP %d", label,
                                r.statusCode());
                    }
                }
            }
            done.complete(null);
        });
        return done;
    }

    @Override
    public void initialized(String protocolVersion) {
        // nothing to do: this transport has no version header and no second stream
    }

    @Override
    public void close() {
        // ending the stream ends the server's session
        shutDown(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_EXITED, "was closed"));
    }

    private void fail(PendingTable.Entry entry, UpstreamException why) {
        if (entry != null) {
            entry.response().completeExceptionally(why);
        }
    }

    private void shutDown(UpstreamException why) {
        if (closed.complete(why)) {
            opened.completeExceptionally(why);
            pending.failAll(why);
            HttpClientResponse s = stream;
            if (s != null) {
                s.request().reset();
            }
            inbound.onClosed(why);
        }
    }

    /** Parses one message and passes it on; runs on a {@link MessageLanes} worker, in stream order. */
    private void message(byte[] bytes) {
        try {
            pending.dispatch(codec.parse(bytes), label, inbound::onMessage);
        } catch (JsonCodec.MalformedJson e) {
            LOG.debugf("upstream %s: ignored an unreadable message of %d bytes (%s)", label, bytes.length, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warnf("upstream %s: handling a message failed (%s)", label, e.getClass().getSimpleName());
        }
    }

    /** What the stream carries: the endpoint once, then messages. */
    private final class Events implements SseDecoder.Sink {
        @Override
        public void event(String id, String event, byte[] data) {
            if ("endpoint".equals(event)) {
                endpoint(data);
            } else if ("message".equals(event) && data.length > 0) {
                if (endpoint == null) {
                    LOG.debugf("upstream %s: ignored a message sent before the endpoint", label);
                    return;
                }
                if (work.submit(() -> message(data), data.length) > oversized.limit().bytes() && !paused) {
                    // more than a limit's worth waits to be handled: read no further until it has been
                    paused = true;
                    stream.pause();
                    work.whenDrained(() -> {
                        paused = false;
                        stream.resume();
                    });
                }
            }
        }

        @Override
        public void oversized(String id, String event, MessageScan scan) {
            if ("endpoint".equals(event)) {
                refuseEndpoint(scan.bytes());
            } else if ("message".equals(event)) {
                oversized.handle(scan);
            }
        }

        @Override
        public void retry(long millis) {
            // this transport cannot resume a stream: a lost one is a lost session
        }
    }

    private void endpoint(byte[] data) {
        if (endpoint != null) {
            // named once per session: a later one must not move where messages go
            LOG.debugf("upstream %s: ignored a second endpoint event", label);
            return;
        }
        String resolved = sameOrigin(config.url(), new String(data, StandardCharsets.UTF_8));
        if (resolved == null) {
            refuseEndpoint(data.length);
            return;
        }
        endpoint = resolved;
        opened.complete(null);
    }

    private void refuseEndpoint(long bytes) {
        // never logged as text: the server wrote it
        LOG.warnf("upstream %s: refused an endpoint event of %d bytes that is not a URL on the configured origin", label,
                bytes);
        shutDown(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                "named a message endpoint that is not on the origin of its configured URL; messages go only there"));
    }
}
