package dev.cloakgate.server;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The latency histograms' shape and their bounded labels. Buckets are fixed (1 ms to 2 min, 16 of them) rather than
 * Micrometer's percentile histogram (about 70 per series): tenant x upstream x method series multiply. A method
 * label is a known MCP method or {@code other}: a label never carries client or upstream text.
 */
final class Latency {
    static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(120)};

    /** Methods counted under their own name (as clients send them and as the gateway sends them upstream). */
    static final Set<String> KNOWN_METHODS = Set.of("initialize", "ping", "tools/list", "tools/call",
            "prompts/list", "prompts/get", "resources/list", "resources/templates/list", "resources/read",
            "resources/subscribe", "resources/unsubscribe", "completion/complete", "logging/setLevel", "tasks/get",
            "tasks/list", "tasks/result", "tasks/cancel", "notifications/initialized", "notifications/cancelled",
            "notifications/progress", "notifications/roots/list_changed");

    private Latency() {
    }

    /** {@code method} as a label: itself when known, else {@code other}. */
    static String method(String method) {
        return method != null && KNOWN_METHODS.contains(method) ? method : "other";
    }

    static Timer timer(MeterRegistry registry, String name, String description, Tags tags) {
        return Timer.builder(name).description(description).tags(tags).serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    /**
     * One histogram's timers by scope (a tenant, or a tenant's upstream) and method label, found without
     * allocating once each has been seen: the hot path records into a timer it already holds.
     */
    static final class Histogram {
        private final MeterRegistry registry;
        private final String name;
        private final String description;
        private final ConcurrentHashMap<String, Scope> scopes = new ConcurrentHashMap<>();

        Histogram(MeterRegistry registry, String name, String description) {
            this.registry = registry;
            this.name = name;
            this.description = description;
        }

        /** The timers of one scope; {@code tags} (of configuration names only) is asked the first time {@code key} is seen. */
        Scope scope(String key, java.util.function.Function<String, Tags> tags) {
            Scope s = scopes.get(key);
            return s != null ? s : scopes.computeIfAbsent(key, k -> new Scope(this, tags.apply(k)));
        }
    }

    /** One scope's timers, one per method label (at most {@link #KNOWN_METHODS} and {@code other}). */
    static final class Scope {
        private final Histogram histogram;
        private final Tags tags;
        private final ConcurrentHashMap<String, Timer> byMethod = new ConcurrentHashMap<>();

        private Scope(Histogram histogram, Tags tags) {
            this.histogram = histogram;
            this.tags = tags;
        }

        /** Records {@code nanos} for {@code method} (any text: an unknown method is {@code other}). */
        void record(String method, long nanos) {
            String m = method(method);
            Timer t = byMethod.get(m);
            if (t == null) {
                t = byMethod.computeIfAbsent(m, k -> timer(histogram.registry, histogram.name, histogram.description,
                        tags.and("method", k)));
            }
            t.record(nanos, TimeUnit.NANOSECONDS);
        }
    }
}
