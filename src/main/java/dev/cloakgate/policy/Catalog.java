package dev.cloakgate.policy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tool names each upstream of a tenant declared when last listed, and the tenant's upstream order (an
 * upstream earlier in the tenant file owns a name over a later one). What tool_shadowing compares against.
 */
public final class Catalog {
    private final List<String> order;
    private final Map<String, Set<String>> names = new ConcurrentHashMap<>();

    public Catalog(List<String> upstreamOrder) {
        this.order = List.copyOf(upstreamOrder);
    }

    public void record(String upstream, Set<String> toolNames) {
        names.put(upstream, Set.copyOf(toolNames));
    }

    public List<String> order() {
        return order;
    }

    public Set<String> names(String upstream) {
        return names.getOrDefault(upstream, Set.of());
    }

    public boolean earlier(String a, String b) {
        return order.indexOf(a) < order.indexOf(b);
    }
}
