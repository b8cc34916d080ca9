package dev.cloakgate.upstream;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Where messages from upstreams are parsed, judged and cloaked: never on a Vert.x event loop, and a large one
 * (over {@code largeBytes}) only on the few large-message workers, so at most that many are worked on at once
 * and one tenant's huge results wait for each other instead of in front of another tenant's small call.
 */
public final class MessageLanes {
    private final Executor small;
    private final Executor large;
    private final int largeBytes;

    public MessageLanes(Executor small, Executor large, int largeBytes) {
        this.small = small;
        this.large = large;
        this.largeBytes = largeBytes;
    }

    public boolean large(long bytes) {
        return bytes > largeBytes;
    }

    public Executor laneFor(long bytes) {
        return large(bytes) ? large : small;
    }

    /**
     * Runs a large message's work on the large lane and waits for it: a stdio reader waits, which is its child's
     * backpressure and keeps the child's messages in order.
     */
    void runLarge(Runnable work) {
        CompletableFuture.runAsync(work, large).join();
    }
}
