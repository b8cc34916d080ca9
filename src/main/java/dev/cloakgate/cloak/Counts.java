package dev.cloakgate.cloak;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one pass over one payload did: values cloaked per category, fields skipped per key, base64 payloads per
 * outcome (text, binary_not_text, withheld_...). Never values.
 */
public final class Counts {
    private final Map<Category, Integer> cloaked = new EnumMap<>(Category.class);
    private final Map<String, Integer> skipped = new TreeMap<>();
    private final Map<String, Integer> base64 = new TreeMap<>();

    void cloaked(Category c) {
        cloaked.merge(c, 1, Integer::sum);
    }

    void skipped(String key) {
        skipped.merge(key, 1, Integer::sum);
    }

    void base64(String outcome) {
        base64.merge(outcome, 1, Integer::sum);
    }

    public Map<String, Integer> base64() {
        return base64;
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
