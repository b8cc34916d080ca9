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
    /** By precedence, then longest first, then by start (one comparison: name-dense text sorts thousands). */
    private static final Comparator<Finding> RANK = (a, b) -> {
        int c = Integer.compare(a.category().precedence(), b.category().precedence());
        if (c == 0) {
            c = Integer.compare(b.length(), a.length());
        }
        return c != 0 ? c : Integer.compare(a.start(), b.start());
    };

    private static final Comparator<Finding> BY_START = Comparator.comparingInt(Finding::start);

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

    /**
     * Non-overlapping findings in {@code text}, in order, as spans of {@code text} as given. The deterministic
     * detectors read its normalised view (NFKC, invisibles removed, Unicode digits, spaces and dashes unified,
     * escapes decoded), a statistical model the lighter view it was trained for ({@link NormalizedText#asWritten});
     * each finding covers whatever its view folded into it.
     */
    public List<Finding> find(String text) {
        NormalizedText view = NormalizedText.of(text);
        NormalizedText written = null;
        List<Finding> all = new ArrayList<>();
        for (Detector d : detectors) {
            NormalizedText v = view;
            if (d.category().statistical()) {
                // the lighter view changes a subset of what the full one does: nothing when that changes nothing
                written = written != null ? written : view.identity() ? view : NormalizedText.asWritten(text);
                v = written;
            }
            int from = all.size();
            d.detect(v, all);
            v.toOriginal(all, from);
        }
        if (keyHints) {
            int from = all.size();
            StructuredText.hints(view.text(), this, all);
            view.toOriginal(all, from);
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
        return d != null && d.acceptsHinted(NormalizedText.of(value).text());
    }

    /** Whether {@code value} is, whole, one value of {@code category} by that category's own detector. */
    boolean isWhole(Category category, String value) {
        Detector d = byCategory.get(category);
        if (d == null) {
            return false;
        }
        NormalizedText view = NormalizedText.of(value);
        List<Finding> f = new ArrayList<>(2);
        d.detect(view, f);
        return f.size() == 1 && f.get(0).start() == 0 && f.get(0).end() == view.text().length();
    }

    static List<Finding> resolve(List<Finding> all) {
        if (all.size() <= 1) {
            return all;
        }
        all.sort(RANK);
        int reach = 0;
        boolean empty = false;
        for (Finding f : all) {
            reach = Math.max(reach, f.end());
            empty |= f.length() <= 0;
        }
        if (!empty) {
            // the characters accepted findings cover: a finding is kept when none of its characters is covered yet
            // (what byNeighbours decides when no finding is empty), in time linear in the text covered
            java.util.BitSet covered = new java.util.BitSet(reach);
            List<Finding> out = new ArrayList<>(all.size());
            for (Finding f : all) {
                int next = covered.nextSetBit(f.start());
                if (next < 0 || next >= f.end()) {
                    covered.set(f.start(), f.end());
                    out.add(f);
                }
            }
            out.sort(BY_START);
            return out;
        }
        return byNeighbours(all);
    }

    /**
     * The rule for findings in rank order, any of them empty: each is kept unless a kept one overlaps it. Accepted
     * findings never overlap, so checking the neighbours by start is enough: O(k log k).
     */
    static List<Finding> byNeighbours(List<Finding> ranked) {
        java.util.TreeMap<Integer, Finding> kept = new java.util.TreeMap<>();
        for (Finding f : ranked) {
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
