package dev.cloakgate.upstream;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When an upstream may next be (re)connected. The first attempt after a healthy link dies is immediate, so
 * one crash costs the next call nothing; each failed attempt doubles the wait up to the maximum.
 */
public final class Backoff {
    private final long initialNanos;
    private final long maxNanos;
    private final LongSupplier clock;
    private long notBefore;
    private long nextDelay;

    public Backoff(Duration initial, Duration max, LongSupplier nanoClock) {
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
        this.clock = nanoClock;
        this.nextDelay = initialNanos;
        this.notBefore = Long.MIN_VALUE;
    }

    /** Nanoseconds to wait before an attempt is allowed; zero or less means now. */
    public synchronized long remainingNanos() {
        return notBefore == Long.MIN_VALUE ? 0 : notBefore - clock.getAsLong();
    }

    public synchronized void failed() {
        notBefore = clock.getAsLong() + nextDelay;
        nextDelay = Math.min(maxNanos, nextDelay * 2);
    }

    public synchronized void succeeded() {
        notBefore = Long.MIN_VALUE;
        nextDelay = initialNanos;
    }
}
