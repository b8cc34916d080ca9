package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Issue 14, PERSON throughput: {@link Detection#resolve} keeps, among overlapping findings, exactly what the rule
 * kept before it was made faster (one comparator instead of a chain, covered characters instead of a map of kept
 * findings by start): random findings of every category, overlapping, nested, repeated and empty, checked against
 * the earlier implementation as the reference.
 */
class OverlapResolutionTest {

    /** The rule as it was before (Detection at 2e74dcd): the chain of comparators, then the map by start. */
    private static List<Finding> reference(List<Finding> in) {
        List<Finding> all = new ArrayList<>(in);
        if (all.size() <= 1) {
            return all;
        }
        all.sort(Comparator.comparingInt((Finding f) -> f.category().precedence())
                .thenComparing(Comparator.comparingInt(Finding::length).reversed())
                .thenComparingInt(Finding::start));
        // the map of kept findings by start, as it was (Detection keeps it for empty findings)
        return Detection.byNeighbours(all);
    }

    @Test
    void keepsWhatTheEarlierRuleKept() {
        Random r = new Random(14);
        Category[] categories = Category.values();
        for (int n = 0; n < 20_000; n++) {
            List<Finding> all = new ArrayList<>();
            int count = r.nextInt(12);
            boolean empties = n % 5 == 0;
            for (int k = 0; k < count; k++) {
                int start = r.nextInt(60);
                int length = empties ? r.nextInt(8) : 1 + r.nextInt(12);
                all.add(new Finding(categories[r.nextInt(categories.length)], start, start + length));
            }
            if (count > 0 && r.nextBoolean()) {
                all.add(all.get(r.nextInt(all.size()))); // the same finding twice (a cue and the model)
            }
            List<Finding> expected = reference(all);
            assertEquals(expected, Detection.resolve(new ArrayList<>(all)), all::toString);
        }
    }
}
