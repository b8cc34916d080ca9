package dev.cloakgate.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Per-principal limits, across all of a principal's sessions: a token bucket of {@code calls_per_minute} (full at
 * first, refilled continuously) and a count of open sessions. State is kept per tenant and principal name, so it
 * outlives a reload of the tenant file; the limits themselves are read from the principal at each check.
 */
public final class PrincipalMeter {
    private static final long MINUTE_NANOS = 60_000_000_000L;

    private final ConcurrentHashMap<String, State> states = new ConcurrentHashMap<>();
    private final LongSupplier nanos;

    public PrincipalMeter(LongSupplier nanos) {
        this.nanos = nanos;
    }

    /** A session slot held until {@link #release}; releasing twice is harmless. */
    public interface Lease {
        void release();
    }

    private static final Lease UNLIMITED = () -> {
    };

    private static final class State {
        /** Calls available, in units of 1/calls-per-minute of a minute: a call costs one minute. */
        private long credit = Long.MIN_VALUE;
        private long last;
        private int sessions;
    }

    /**
     * Takes one call from the principal's allowance.
     *
     * @return 0 when the call may proceed, else the whole seconds until one more would be allowed
     */
    public long tryCall(Principal p) {
        int perMinute = p.limits().callsPerMinute();
        if (perMinute <= 0) {
            return 0;
        }
        State s = state(p);
        long now = nanos.getAsLong();
        synchronized (s) {
            // credit in nanoseconds of a minute times calls: each call costs MINUTE_NANOS, the bucket holds a minute's calls
            long capacity = MINUTE_NANOS * (long) perMinute;
            if (s.credit == Long.MIN_VALUE) {
                s.credit = capacity;
            } else {
                // the bucket is full after a minute, so a longer pause earns no more (and cannot overflow)
                long elapsed = Math.min(MINUTE_NANOS, Math.max(0, now - s.last));
                s.credit = Math.min(capacity, s.credit + elapsed * perMinute);
            }
            s.last = now;
            if (s.credit >= MINUTE_NANOS) {
                s.credit -= MINUTE_NANOS;
                return 0;
            }
            long missing = MINUTE_NANOS - s.credit;
            return Math.max(1, (missing / perMinute + 999_999_999L) / 1_000_000_000L);
        }
    }

    /** A session slot for the principal, or null when it already holds as many sessions as its limit allows. */
    public Lease openSession(Principal p) {
        int max = p.limits().sessions();
        if (max <= 0) {
            return UNLIMITED;
        }
        State s = state(p);
        synchronized (s) {
            if (s.sessions >= max) {
                return null;
            }
            s.sessions++;
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                synchronized (s) {
                    s.sessions--;
                }
            }
        };
    }

    /** Sessions the principal holds now (for tests and status). */
    public int sessions(Principal p) {
        State s = states.get(key(p));
        if (s == null) {
            return 0;
        }
        synchronized (s) {
            return s.sessions;
        }
    }

    private State state(Principal p) {
        return states.computeIfAbsent(key(p), k -> new State());
    }

    private static String key(Principal p) {
        return p.tenant() + "/" + p.name();
    }
}
