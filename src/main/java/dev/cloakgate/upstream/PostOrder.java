package dev.cloakgate.upstream;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The order of POSTs on an HTTP transport. Each POST is its own exchange and the upstream may process them in any
 * order; notifications and responses are therefore chained, and a request waits for the ones sent before it
 * ({@code notifications/initialized} must reach the server before the first call, a cancellation before a retry).
 */
final class PostOrder {
    private CompletableFuture<Void> ordered = CompletableFuture.completedFuture(null);

    /** Runs a request's POST once what was sent before it is out; requests do not wait for each other. */
    void request(Runnable post) {
        CompletableFuture<Void> before;
        synchronized (this) {
            before = ordered;
        }
        if (before.isDone()) {
            post.run();
        } else {
            before.whenComplete((v, t) -> post.run());
        }
    }

    /** Chains a notification's or response's POST (completing when its exchange is over) after all before it. */
    synchronized void notification(Supplier<CompletableFuture<Void>> post) {
        ordered = ordered.handle((v, t) -> null).thenCompose(v -> post.get());
    }
}
