package dev.cloakgate.upstream;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The health of every upstream of every tenant, by tenant and upstream name: what tenant status and the metrics
 * read. An entry is made the first time it is asked for; listeners (the metrics) hear of each new one.
 */
public final class HealthBoard {
    private final Clock clock;
    private final Map<String, Map<String, UpstreamHealth>> byTenant = new ConcurrentHashMap<>();
    private final List<Consumer<UpstreamHealth>> listeners = new CopyOnWriteArrayList<>();

    public HealthBoard(Clock clock) {
        this.clock = clock;
    }

    public HealthBoard() {
        this(Clock.systemUTC());
    }

    /** Hears of every entry made from now on, and of those that exist already. */
    public void onNew(Consumer<UpstreamHealth> listener) {
        listeners.add(listener);
        byTenant.values().forEach(m -> m.values().forEach(listener));
    }

    public UpstreamHealth of(String tenant, String upstream) {
        boolean[] made = new boolean[1];
        UpstreamHealth h = byTenant.computeIfAbsent(tenant, t -> new ConcurrentHashMap<>()).computeIfAbsent(upstream,
                u -> {
                    made[0] = true;
                    return new UpstreamHealth(tenant, u, clock);
                });
        if (made[0]) {
            listeners.forEach(l -> l.accept(h));
        }
        return h;
    }

    /** The tenant's upstreams as known so far, by name (empty for a tenant no one asked about). */
    public Map<String, UpstreamHealth.Snapshot> tenant(String tenant) {
        Map<String, UpstreamHealth.Snapshot> out = new java.util.TreeMap<>();
        byTenant.getOrDefault(tenant, Map.of()).forEach((name, h) -> out.put(name, h.snapshot()));
        return out;
    }
}
