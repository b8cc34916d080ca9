package dev.cloakgate.server;

import dev.cloakgate.session.SessionStreams;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;

/**
 * One HTTP response carrying a text/event-stream. Idle streams get a comment every keep-alive interval so
 * proxies and load balancers do not cut them; an empty event is the priming event, carrying the retry hint.
 */
final class SseSink implements SessionStreams.Sink {
    private final HttpServerResponse response;
    private final Vertx vertx;
    private final long retryMillis;
    private volatile long lastWrite = System.nanoTime();
    private volatile boolean ended;
    private long timer = -1;

    /** @param onClose runs when the client's connection goes away */
    SseSink(HttpServerResponse response, Vertx vertx, long keepAliveMillis, long retryMillis, Runnable onClose) {
        this.response = response;
        this.vertx = vertx;
        this.retryMillis = retryMillis;
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
        response.closeHandler(v -> {
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
        if (!response.ended() && !response.closed()) {
            response.end();
        }
    }

    boolean open() {
        return !ended && !response.closed() && !response.ended();
    }

    private boolean raw(String text) {
        if (!open()) {
            return false;
        }
        lastWrite = System.nanoTime();
        response.write(text);
        return true;
    }

    private void stopTimer() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
