package dev.cloakgate.session;

import java.util.HashMap;
import java.util.Map;

/**
 * Bytes written toward one session's client, over all its connections, that the client has not taken yet. A
 * client that opens its streams and never reads them would otherwise make the gateway queue whatever its
 * upstreams send, without bound and off-heap. Past the bound, the connection furthest behind is ended: that is
 * the one nobody reads, and the events it missed stay in the replay buffer for a resume with Last-Event-ID.
 */
public final class Backlog {

    /** One connection's side: ends it, dropping what is queued on it. */
    @FunctionalInterface
    public interface Connection {
        void abandon();
    }

    private final long max;
    private final Map<Connection, Long> queued = new HashMap<>();
    private long total;

    public Backlog(long max) {
        this.max = max;
    }

    /**
     * Records {@code bytes} written to {@code c}. Returns the connection to end when the session is now over its
     * bound (the one with most queued, possibly {@code c}), else null; the caller ends it outside this lock.
     */
    public synchronized Connection written(Connection c, long bytes) {
        queued.merge(c, bytes, Long::sum);
        total += bytes;
        if (total <= max) {
            return null;
        }
        Connection furthest = c;
        long most = -1;
        for (Map.Entry<Connection, Long> e : queued.entrySet()) {
            if (e.getValue() > most) {
                most = e.getValue();
                furthest = e.getKey();
            }
        }
        return furthest;
    }

    /** {@code bytes} written to {@code c} were taken by the client, or dropped with the connection. */
    public synchronized void taken(Connection c, long bytes) {
        queued.computeIfPresent(c, (k, n) -> n - bytes <= 0 ? null : n - bytes);
        total = Math.max(0, total - bytes);
    }

    public synchronized long total() {
        return total;
    }
}
