package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cloakgate.cloak.detect.Detector;

/**
 * A tenant's detection: the enabled detectors, key hints, and the rule for overlapping findings (validated
 * categories beat statistical ones; longer beats shorter). Shared by all of the tenant's sessions; stateless.
 */
public final class Detection {
    private static final Comparator<Finding> RANK = Comparator
            .comparingInt((Finding f) -> f.category().precedence())
            .thenComparing(Comparator.comparingInt(Finding::length).reversed())
            .thenComparingInt(Finding::start);

    private final List<Detector> detectors;
    private final Map<Category, Detector> byCategory = new EnumMap<>(Category.class);
    private final boolean keyHints;

    public Detection(List<Detector> detectors, boolean keyHints) {
        this.detectors = List.copyOf(detectors);
        this.keyHints = keyHints;
        for (Detector d : detectors) {
            byCategory.putIfAbsent(d.category(), d);
        }
    }

    public Set<Category> categories() {
        return byCategory.keySet();
    }

    /** A detection with only the given categories (the regex-only pass of the tripwire, for one). */
    public Detection only(Set<Category> keep) {
        List<Detector> d = new ArrayList<>();
        for (Detector x : detectors) {
            if (keep.contains(x.category())) {
                d.add(x);
            }
        }
        return new Detection(d, false);
    }

    /** Non-overlapping findings in {@code text}, in order. */
    public List<Finding> find(String text) {
        List<Finding> all = new ArrayList<>();
        for (Detector d : detectors) {
            d.detect(text, all);
        }
        if (keyHints) {
            StructuredText.hints(text, this, all);
        }
        return resolve(all);
    }

    /** The category a key names, when hints are on and that category is enabled. */
    public Category hintFor(String key) {
        if (!keyHints) {
            return null;
        }
        Category c = KeyHints.forKey(key);
        return c != null && byCategory.containsKey(c) ? c : null;
    }

    /** Whether a value under a key naming {@code category} is one (the looser, hinted test). */
    public boolean acceptsHinted(Category category, String value) {
        Detector d = byCategory.get(category);
        return d != null && d.acceptsHinted(value);
    }

    static List<Finding> resolve(List<Finding> all) {
        if (all.size() <= 1) {
            return all;
        }
        all.sort(RANK);
        // accepted findings never overlap, so checking the neighbours by start is enough: O(k log k)
        java.util.TreeMap<Integer, Finding> kept = new java.util.TreeMap<>();
        for (Finding f : all) {
            Map.Entry<Integer, Finding> before = kept.floorEntry(f.start());
            if (before != null && before.getValue().end() > f.start()) {
                continue;
            }
            Map.Entry<Integer, Finding> after = kept.ceilingEntry(f.start());
            if (after != null && after.getValue().start() < f.end()) {
                continue;
            }
            kept.put(f.start(), f);
        }
        return new ArrayList<>(kept.values());
    }
}
