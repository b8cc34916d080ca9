package dev.cloakgate.cloak;

import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one pass over one payload did: values cloaked per category, fields skipped per key, base64 payloads per
 * outcome (text, binary_not_text, withheld_...). Never values, but for the names the typed pass found, which
 * {@link Propagation} reads to cloak them in the payload's other fields and which go no further.
 */
public final class Counts {
    private final Map<Category, Integer> cloaked = new EnumMap<>(Category.class);
    private final Map<String, Integer> skipped = new TreeMap<>();
    private final Map<String, Integer> base64 = new TreeMap<>();
    private final Set<String> names = new LinkedHashSet<>();

    void cloaked(Category c) {
        cloaked.merge(c, 1, Integer::sum);
    }

    /** A PERSON value the typed pass found (its text as written). */
    void name(String value) {
        names.add(value);
    }

    Set<String> names() {
        return names;
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
