package dev.cloakgate.session;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Which upstream serves a resource URI. URIs are never rewritten (a URI is meaningful to the server that
 * issued it and is shown to the user), so routing needs this index, built from resources/list,
 * resources/templates/list and resource links seen in results.
 */
public final class ResourceIndex {

    /** The outcome of a lookup: one upstream, several (ambiguous), or none. */
    public record Lookup(Set<String> upstreams) {
        public boolean found() {
            return upstreams.size() == 1;
        }

        public String upstream() {
            return upstreams.iterator().next();
        }
    }

    private record Template(String upstream, UriTemplate template) {
    }

    private final int maxEntries;
    private final Map<String, Set<String>> exact = new ConcurrentHashMap<>();
    private final List<Template> templates = new CopyOnWriteArrayList<>();

    public ResourceIndex(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    public void addResource(String upstream, String uri) {
        if (exact.size() >= maxEntries && !exact.containsKey(uri)) {
            return;
        }
        exact.computeIfAbsent(uri, k -> ConcurrentHashMap.newKeySet()).add(upstream);
    }

    public void addTemplate(String upstream, String template) {
        for (Template t : templates) {
            if (t.upstream.equals(upstream) && t.template.template().equals(template)) {
                return;
            }
        }
        if (templates.size() < maxEntries) {
            templates.add(new Template(upstream, new UriTemplate(template)));
        }
    }

    /** Upstreams whose listings named this exact URI, else those whose templates match it. */
    public Lookup lookup(String uri) {
        Set<String> hits = exact.get(uri);
        if (hits != null && !hits.isEmpty()) {
            return new Lookup(Set.copyOf(hits));
        }
        Set<String> byTemplate = new LinkedHashSet<>();
        for (Template t : templates) {
            if (t.template.template().equals(uri) || t.template.matches(uri)) {
                byTemplate.add(t.upstream);
            }
        }
        return new Lookup(byTemplate);
    }

    /** Forgets an upstream's entries (its list changed or its link was re-established). */
    public void forget(String upstream) {
        exact.values().forEach(s -> s.remove(upstream));
        exact.entrySet().removeIf(e -> e.getValue().isEmpty());
        List<Template> keep = new ArrayList<>();
        for (Template t : templates) {
            if (!t.upstream.equals(upstream)) {
                keep.add(t);
            }
        }
        templates.clear();
        templates.addAll(keep);
    }
}
