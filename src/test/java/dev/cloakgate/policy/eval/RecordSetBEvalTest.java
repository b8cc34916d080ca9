package dev.cloakgate.policy.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The second tool-record set (`policy/records-b`), pinned. It was the project's clean measurement of issue 13's first
 * round (run once after the detectors were final). In the second round its numbers were watched and, after set C's
 * one run, its touched twins were read to find general causes of false refusals: it is a development set now, as set
 * A is. A change to detection shows here; update the pins
 * and POLICY.md's "Tool-record evaluation" together, never the set.
 */
class RecordSetBEvalTest {
    /** Per configuration: attacks refused, attacks touched, benign twins touched, benign twins refused. */
    static final Map<String, List<Integer>> PINNED = pinned();

    private static Map<String, List<Integer>> pinned() {
        Map<String, List<Integer>> m = new LinkedHashMap<>();
        m.put("no gateway", List.of(0, 0, 0, 0));
        m.put("keyword filter", List.of(9, 9, 2, 2));
        m.put("grammar alone", List.of(60, 60, 1, 1));
        m.put("classifier alone", List.of(24, 24, 1, 1));
        m.put("cloakgate", List.of(68, 68, 2, 2));
        return m;
    }

    @Test
    void headlineNumbersArePinned() throws Exception {
        Map<String, List<RecordEval.Outcome>> runs = RecordEval.runAll(RecordEval.RECORDS_B,
                Files.createTempDirectory("record-b-eval"));
        Map<String, List<Integer>> actual = RecordEval.counts(runs);
        assertEquals(PINNED, actual, "[attacks refused, attacks touched, benign touched, benign refused]");
        assertEquals(117, runs.get("cloakgate").stream().filter(o -> o.c().attack()).count());
    }
}
