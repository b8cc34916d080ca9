package dev.cloakgate.server;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.session.ClientStream;
import dev.cloakgate.session.SessionStreams;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * The answer to one POSTed request: plain JSON when nothing has to reach the client first; upgraded to
 * text/event-stream (priming event, then the messages, then the response) as soon as something does.
 */
final class PostExchange implements ClientStream {
    private enum State {
        PENDING, STREAMING, DONE
    }

    private final RoutingContext rc;
    private final HttpServerResponse response;
    private final Vertx vertx;
    private final boolean acceptsSse;
    private final SessionStreams streams;
    private final JsonCodec codec;
    private final long keepAliveMillis;
    private final long retryMillis;
    private final Outbound outbound;
    private State state = State.PENDING;
    private SseSink sink;
    private SessionStreams.Stream stream;

    PostExchange(RoutingContext rc, Vertx vertx, boolean acceptsSse, SessionStreams streams, JsonCodec codec,
            long keepAliveMillis, long retryMillis, Outbound outbound) {
        this.rc = rc;
        this.response = rc.response();
        this.vertx = vertx;
        this.acceptsSse = acceptsSse;
        this.streams = streams;
        this.codec = codec;
        this.keepAliveMillis = keepAliveMillis;
        this.retryMillis = retryMillis;
        this.outbound = outbound;
    }

    /**
     * Upgrades a request still waiting after one keep-alive interval, so keep-alive comments can flow and a
     * proxy does not cut a slow call.
     */
    void armKeepAlive() {
        if (acceptsSse && keepAliveMillis > 0) {
            long timer = vertx.setTimer(keepAliveMillis, id -> open());
            rc.addEndHandler(ar -> vertx.cancelTimer(timer));
        }
    }

    @Override
    public synchronized boolean push(ObjectNode message) {
        if (!startStreaming()) {
            return false;
        }
        streams.emit(stream, codec.toString(message));
        return true;
    }

    @Override
    public synchronized void open() {
        startStreaming();
    }

    /** Switches the answer to text/event-stream with a priming event; false when it cannot (done, or JSON only). */
    private boolean startStreaming() {
        if (state == State.DONE || !acceptsSse) {
            return false;
        }
        if (state == State.PENDING) {
            if (response.closed()) {
                return false;
            }
            sink = new SseSink(rc, vertx, keepAliveMillis, retryMillis, outbound, streams.backlog(), this::disconnected);
            stream = streams.open(sink);
            streams.emit(stream, "");
            state = State.STREAMING;
        }
        return true;
    }

    /** The response is over: if the client dropped the connection, later events wait in the buffer for a resume. */
    private synchronized void disconnected() {
        if (stream != null) {
            streams.detach(stream, sink);
        }
    }

    /** Sends the response; null means the request was cancelled and is owed none. */
    synchronized void complete(ObjectNode message) {
        if (state == State.DONE) {
            return;
        }
        if (state == State.PENDING) {
            state = State.DONE;
            if (response.closed()) {
                return;
            }
            if (message == null) {
                response.setStatusCode(202).end();
            } else {
                response.setStatusCode(200).putHeader("Content-Type", "application/json");
                new ResponseWriter(response, vertx, outbound, streams.backlog()).end(Buffer.buffer(codec.toBytes(message)));
            }
            return;
        }
        state = State.DONE;
        if (message != null) {
            streams.emit(stream, codec.toString(message));
        }
        streams.finish(stream);
    }
}
