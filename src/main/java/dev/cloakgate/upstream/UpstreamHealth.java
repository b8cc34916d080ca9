package dev.cloakgate.upstream;

import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * How one upstream of one tenant is doing, as operators see it (tenant status, metrics): whether the last attempt to
 * reach it worked, the last failure (reason code, what failed, and for a child that could not start the head of its
 * stderr, scrubbed), how often it came back after failing, and failures by reason. Every session's links to the
 * upstream report here; a shared child reports once for all. Plain Java: nothing here knows of Quarkus.
 */
public final class UpstreamHealth {

    public enum State {
        /** Not tried yet (no session has needed it since start). */
        UNKNOWN,
        /** The last attempt to establish it succeeded and its link has not been lost since. */
        UP,
        /** The last attempt failed, or its link was lost. */
        DOWN
    }

    /** One failure: its stable reason code, what failed (no payload), and the child's stderr head or null. */
    public record Failure(String reason, String cause, String diagnostic, Instant at) {
    }

    /** A consistent copy for readers (the admin API). */
    public record Snapshot(String tenant, String upstream, State state, Instant since, Failure lastFailure,
            long restarts, Map<String, Long> failures) {
    }

    /** A cause logged less than this long ago is not logged again at the same level. */
    private static final long REPEAT_MILLIS = 60_000;

    private final String tenant;
    private final String upstream;
    private final Clock clock;
    private State state = State.UNKNOWN;
    private Instant since;
    private Failure lastFailure;
    private long restarts;
    private final Map<UpstreamException.Reason, Long> failures = new EnumMap<>(UpstreamException.Reason.class);
    private String lastLogged;
    private long lastLoggedAt;

    public UpstreamHealth(String tenant, String upstream, Clock clock) {
        this.tenant = tenant;
        this.upstream = upstream;
        this.clock = clock;
        this.since = clock.instant();
    }

    public String tenant() {
        return tenant;
    }

    public String upstream() {
        return upstream;
    }

    /** Established; {@code restart} when it had failed or been lost before (a child restarted, a server back). */
    public synchronized void up(boolean restart) {
        if (restart) {
            restarts++;
        }
        if (state != State.UP) {
            state = State.UP;
            since = clock.instant();
        }
    }

    /** An attempt failed, or an established link was lost. */
    public synchronized void failed(UpstreamException why) {
        failures.merge(why.reason(), 1L, Long::sum);
        lastFailure = new Failure(why.reason().code(), why.detail(), why.diagnostic(), clock.instant());
        if (state != State.DOWN) {
            state = State.DOWN;
            since = lastFailure.at();
        }
    }

    /**
     * Whether a failure with this reason and cause should be logged at its full level now: not when the same was
     * logged within the last minute (every session that needs a broken upstream tries it; the log says it once).
     */
    public synchronized boolean worthLogging(UpstreamException why) {
        String key = why.reason().code() + " " + why.detail();
        long now = clock.millis();
        if (key.equals(lastLogged) && now - lastLoggedAt < REPEAT_MILLIS) {
            return false;
        }
        lastLogged = key;
        lastLoggedAt = now;
        return true;
    }

    public synchronized State state() {
        return state;
    }

    /** 1 up, 0 down, NaN not known yet (a gauge must not claim an upstream nobody tried is down). */
    public synchronized double upValue() {
        return state == State.UP ? 1 : state == State.DOWN ? 0 : Double.NaN;
    }

    public synchronized long restarts() {
        return restarts;
    }

    public synchronized long failures(UpstreamException.Reason reason) {
        return failures.getOrDefault(reason, 0L);
    }

    public synchronized Snapshot snapshot() {
        Map<String, Long> byCode = new java.util.TreeMap<>();
        failures.forEach((r, n) -> byCode.put(r.code(), n));
        return new Snapshot(tenant, upstream, state, since, lastFailure, restarts, Map.copyOf(byCode));
    }
}
