package dev.cloakgate.server;

import dev.cloakgate.session.Backlog;
import dev.cloakgate.session.SessionStreams;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

/**
 * One HTTP response carrying a text/event-stream. Idle streams get a comment every keep-alive interval so
 * proxies and load balancers do not cut them; an empty event is the priming event, carrying the retry hint.
 * Writes go through a {@link ResponseWriter}, so a client that does not read has its stream ended instead of
 * the gateway queueing for it without bound; what it missed stays in the session's replay buffer.
 */
final class SseSink implements SessionStreams.Sink {
    private final ResponseWriter writer;
    private final Vertx vertx;
    private final long retryMillis;
    private volatile long lastWrite = System.nanoTime();
    private volatile boolean ended;
    private long timer = -1;

    /** @param onClose runs when the response is over: ended, or the client's connection gone */
    SseSink(RoutingContext rc, Vertx vertx, long keepAliveMillis, long retryMillis, Outbound outbound, Backlog backlog,
            Runnable onClose) {
        this.vertx = vertx;
        this.retryMillis = retryMillis;
        var response = rc.response();
        this.writer = new ResponseWriter(response, vertx, outbound, backlog);
        response.setChunked(true);
        response.setStatusCode(200);
        response.putHeader("Content-Type", "text/event-stream");
        response.putHeader("Cache-Control", "no-cache, no-transform");
        // nginx buffers responses by default; this tells it not to hold events back
        response.putHeader("X-Accel-Buffering", "no");
        if (keepAliveMillis > 0) {
            long nanos = keepAliveMillis * 1_000_000L;
            timer = vertx.setPeriodic(keepAliveMillis, id -> {
                if (System.nanoTime() - lastWrite >= nanos / 2) {
                    raw(": keep-alive\n\n");
                }
            });
        }
        // an end handler of the routing context: setting the response's own would displace the router's
        rc.addEndHandler(ar -> {
            stopTimer();
            onClose.run();
        });
    }

    @Override
    public boolean write(String eventId, String data) {
        if (data.isEmpty()) {
            return raw("id: " + eventId + "\nretry: " + retryMillis + "\ndata: \n\n");
        }
        return raw("id: " + eventId + "\ndata: " + data + "\n\n");
    }

    @Override
    public void end() {
        ended = true;
        stopTimer();
        writer.end();
    }

    boolean open() {
        return !ended && writer.open();
    }

    private boolean raw(String text) {
        if (!open()) {
            return false;
        }
        lastWrite = System.nanoTime();
        return writer.write(Buffer.buffer(text));
    }

    private synchronized void stopTimer() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
