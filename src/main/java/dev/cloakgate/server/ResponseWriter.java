package dev.cloakgate.server;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.cloakgate.session.Backlog;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes one HTTP response toward a client and counts what the client has not taken yet: per connection, for
 * its session ({@link Backlog}) and for the gateway ({@link Outbound}). Vert.x queues whatever is written,
 * reader or no reader; a connection already further behind than the limit when more is due, or one that has
 * taken nothing for the stall timeout, is closed, which drops what is queued on it.
 */
final class ResponseWriter implements Backlog.Connection {
    /** A write this large may outlast the socket's buffers on its own, so it is watched from the start. */
    private static final int WATCHED_WRITE = 64 * 1024;
    private final HttpServerResponse response;
    private final Vertx vertx;
    private final Outbound outbound;
    private final Backlog backlog;
    private final AtomicLong queued = new AtomicLong();
    private final AtomicBoolean watching = new AtomicBoolean();
    private volatile long lastProgress = System.nanoTime();
    private volatile boolean abandoned;

    ResponseWriter(HttpServerResponse response, Vertx vertx, Outbound outbound, Backlog backlog) {
        this.response = response;
        this.vertx = vertx;
        this.outbound = outbound;
        this.backlog = backlog;
    }

    /** Writes a chunk; false when the connection is gone or was ended for falling behind. */
    boolean write(Buffer chunk) {
        if (!open()) {
            return false;
        }
        if (queued.get() > outbound.maxPerConnection()) {
            abandon("backlog");
            return false;
        }
        return send(chunk, false);
    }

    /** Ends the response with a last chunk (the whole of a plain JSON answer). */
    void end(Buffer last) {
        if (open()) {
            send(last, true);
        }
    }

    private boolean send(Buffer b, boolean last) {
        Backlog.Connection furthest = account(b.length());
        Future<Void> written;
        try {
            written = last ? response.end(b) : response.write(b);
        } catch (IllegalStateException closedMeanwhile) {
            written = Future.failedFuture(closedMeanwhile);
        }
        settle(written, b.length());
        if (furthest != null) {
            furthest.abandon();
        }
        return !written.failed();
    }

    void end() {
        if (!response.ended() && !response.closed()) {
            response.end();
        }
    }

    boolean open() {
        return !abandoned && !response.closed() && !response.ended();
    }

    /**
     * Watches a connection that has bytes waiting, for as long as it has (the response may have ended meanwhile:
     * what it queued is still held): one that takes nothing for the stall timeout is ended.
     */
    private void watch(long delayMillis) {
        vertx.setTimer(Math.max(1, delayMillis), id -> {
            if (queued.get() <= 0 || abandoned || response.closed()) {
                watching.set(false);
                if (queued.get() > 0 && !abandoned && !response.closed() && watching.compareAndSet(false, true)) {
                    watch(outbound.stallMillis());
                }
                return;
            }
            long idle = (System.nanoTime() - lastProgress) / 1_000_000L;
            if (idle >= outbound.stallMillis()) {
                watching.set(false);
                abandon("stalled");
            } else {
                watch(outbound.stallMillis() - idle);
            }
        });
    }

    @Override
    public void abandon() {
        abandon("backlog");
    }

    private void abandon(String reason) {
        if (abandoned) {
            return;
        }
        abandoned = true;
        outbound.ended(reason);
        // close, not end: an end would queue behind what the client is not reading
        response.close();
    }

    private Backlog.Connection account(long n) {
        long before = queued.getAndAdd(n);
        if (before == 0) {
            lastProgress = System.nanoTime();
        }
        // a small write to a connection with nothing waiting goes to the socket at once: no timer for it
        if ((before > 0 || n >= WATCHED_WRITE) && watching.compareAndSet(false, true)) {
            watch(outbound.stallMillis());
        }
        outbound.queued(n);
        return backlog == null ? null : backlog.written(this, n);
    }

    private void settle(Future<Void> written, long n) {
        written.onComplete(ar -> {
            queued.addAndGet(-n);
            outbound.taken(n);
            if (backlog != null) {
                backlog.taken(this, n);
            }
            lastProgress = System.nanoTime();
        });
    }
}
