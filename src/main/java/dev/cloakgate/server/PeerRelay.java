package dev.cloakgate.server;

import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jboss.logging.Logger;

import dev.cloakgate.cluster.PeerSignature;
import dev.cloakgate.evidence.LogTag;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;

/**
 * Carries a request to the replica that owns its session and relays the answer back, status, headers and body,
 * an event stream as it comes (piped, so a slow client slows the owner's stream instead of filling memory here).
 * Hop-by-hop headers stay on their hop; a client's own peer header is dropped and this replica's signature added.
 */
final class PeerRelay {
    private static final Logger LOG = Logger.getLogger(PeerRelay.class);
    /** RFC 9110 7.6.1 hop-by-hop headers, and those the relay sets itself. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host",
            "content-length", PeerSignature.HEADER.toLowerCase(Locale.ROOT));

    private final HttpClient client;
    private final PeerSignature signature;
    private final String self;
    private final long idleMillis;

    PeerRelay(Vertx vertx, PeerSignature signature, String self, Duration connectTimeout, Duration idleTimeout,
            int maxConnections) {
        this.signature = signature;
        this.self = self;
        this.idleMillis = idleTimeout.toMillis();
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true)
                .setConnectTimeout((int) connectTimeout.toMillis()),
                new PoolOptions().setHttp1MaxSize(maxConnections).setMaxWaitQueueSize(-1));
    }

    /**
     * Sends the request of {@code rc} (its body already read: {@code body}) to {@code base}; {@code ownerGone} runs
     * when the owner cannot be reached or fails before its answer began, so the client hears of an unknown session.
     */
    void forward(RoutingContext rc, String base, String sessionId, Buffer body, Runnable ownerGone) {
        HttpServerRequest in = rc.request();
        String uri = in.uri();
        RequestOptions options = new RequestOptions().setMethod(in.method()).setAbsoluteURI(base + uri)
                .setIdleTimeout(idleMillis);
        MultiMap headers = endToEnd(in.headers());
        headers.set(PeerSignature.HEADER, signature.sign(self,
                new PeerSignature.Signed(in.method().name(), uri, sessionId, body.getBytes())));
        options.setHeaders(headers);
        HttpServerResponse out = rc.response();
        client.request(options).compose(req -> {
            // the client went away: the forward (a stream, most likely) is ended at the owner too
            rc.addEndHandler(ar -> {
                if (ar.failed()) {
                    req.reset();
                }
            });
            return body.length() == 0 ? req.send() : req.send(body);
        }).onComplete(ar -> {
            if (ar.failed()) {
                LOG.debugf("forward of session %s failed before an answer: %s", LogTag.of(sessionId),
                        ar.cause().getClass().getSimpleName());
                ownerGone.run();
                return;
            }
            relay(ar.result(), out, sessionId);
        });
    }

    private static void relay(HttpClientResponse answer, HttpServerResponse out, String sessionId) {
        if (out.ended() || out.closed()) {
            answer.request().reset();
            return;
        }
        out.setStatusCode(answer.statusCode());
        out.headers().addAll(endToEnd(answer.headers()));
        String length = answer.getHeader("Content-Length");
        if (length != null) {
            out.putHeader("Content-Length", length);
        } else {
            out.setChunked(true);
        }
        // the owner failing mid-answer breaks the client's connection rather than ending it cleanly: a cut stream is
        // not a complete one, and the client's reconnect then learns that the session is gone
        answer.pipe().endOnFailure(false).to(out).onFailure(t -> {
            LOG.debugf("forwarded answer of session %s cut: %s", LogTag.of(sessionId), t.getClass().getSimpleName());
            answer.request().reset();
            if (!out.closed()) {
                out.reset();
            }
        });
    }

    /** The end-to-end headers of {@code headers}: hop-by-hop ones, those named in Connection, and the peer header removed. */
    static MultiMap endToEnd(MultiMap headers) {
        Set<String> drop = new HashSet<>(HOP_BY_HOP);
        for (String c : headers.getAll("Connection")) {
            for (String token : c.split(",")) {
                drop.add(token.strip().toLowerCase(Locale.ROOT));
            }
        }
        MultiMap kept = MultiMap.caseInsensitiveMultiMap();
        for (Map.Entry<String, String> h : headers) {
            if (!drop.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                kept.add(h.getKey(), h.getValue());
            }
        }
        return kept;
    }
}
