package dev.cloakgate.server;

import java.time.Duration;

/**
 * The gateway's requests in flight, and whether it is shutting down. The front counts each JSON-RPC request
 * (initialize included) from when it is read until its HTTP response has ended, so a call counts until its answer
 * is written to the connection (or the client went away). Once draining, readiness is down and new sessions are
 * refused; the shutdown waits here for the count to reach zero.
 */
final class Drain {
    private final Object lock = new Object();
    private int inFlight;
    private volatile boolean draining;

    /** Starts the drain; false when it had started already. */
    boolean begin() {
        synchronized (lock) {
            if (draining) {
                return false;
            }
            draining = true;
            return true;
        }
    }

    boolean draining() {
        return draining;
    }

    void enter() {
        synchronized (lock) {
            inFlight++;
        }
    }

    void exit() {
        synchronized (lock) {
            if (--inFlight <= 0) {
                inFlight = 0;
                lock.notifyAll();
            }
        }
    }

    int inFlight() {
        synchronized (lock) {
            return inFlight;
        }
    }

    /** Waits until nothing is in flight, at most {@code timeout}; true when nothing is. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (inFlight > 0) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            return true;
        }
    }
}
