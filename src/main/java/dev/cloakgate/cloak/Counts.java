package dev.cloakgate.cloak;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/** What one pass over one payload did: values cloaked per category, fields skipped per key. Never values. */
public final class Counts {
    private final Map<Category, Integer> cloaked = new EnumMap<>(Category.class);
    private final Map<String, Integer> skipped = new TreeMap<>();

    void cloaked(Category c) {
        cloaked.merge(c, 1, Integer::sum);
    }

    void skipped(String key) {
        skipped.merge(key, 1, Integer::sum);
    }

    public Map<Category, Integer> cloaked() {
        return cloaked;
    }

    public Map<String, Integer> skipped() {
        return skipped;
    }

    public int total() {
        int t = 0;
        for (int v : cloaked.values()) {
            t += v;
        }
        return t;
    }
}
