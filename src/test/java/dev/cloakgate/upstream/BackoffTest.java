package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void firstAttemptIsImmediateThenDoublesToTheCapAndResets() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(350), now::get);
        assertTrue(b.remainingNanos() <= 0);
        b.failed();
        assertEquals(Duration.ofMillis(100).toNanos(), b.remainingNanos());
        now.addAndGet(Duration.ofMillis(100).toNanos());
        assertTrue(b.remainingNanos() <= 0);
        b.failed();
        assertEquals(Duration.ofMillis(200).toNanos(), b.remainingNanos());
        b.failed();
        assertEquals(Duration.ofMillis(350).toNanos(), b.remainingNanos());
        b.succeeded();
        assertTrue(b.remainingNanos() <= 0);
    }
}
