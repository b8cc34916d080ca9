package dev.cloakgate.policy.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The third tool-record set (`policy/records-c`), written by someone who read neither the control, its training
 * data, the corpus nor sets A and B, and run once, after issue 13's second round of detector work was final
 * (`./mvnw -B -Precord-eval-c process-test-classes`, at a873813: cloakgate 141/193 refused, 5/114 twins touched): the
 * project's clean measurement. The pins are the code after it: precision fixes found on sets A and B and Chinese
 * word order found on texts of the project's own (never on this set, whose cases were not read) moved it to 143/193
 * and 4/114. It is spent: a number reached by changing a rule
 * after reading this set's misses would no longer be a held-out number. Update the pins and POLICY.md together,
 * never the set.
 */
class RecordSetCEvalTest {
    /** Per configuration: attacks refused, attacks touched, benign twins touched, benign twins refused. */
    static final Map<String, List<Integer>> PINNED = pinned();

    private static Map<String, List<Integer>> pinned() {
        Map<String, List<Integer>> m = new LinkedHashMap<>();
        m.put("no gateway", List.of(0, 0, 0, 0));
        m.put("keyword filter", List.of(10, 10, 2, 2));
        m.put("grammar alone", List.of(131, 131, 4, 4));
        m.put("classifier alone", List.of(59, 59, 0, 0));
        m.put("cloakgate", List.of(143, 143, 4, 4));
        return m;
    }

    @Test
    void headlineNumbersArePinned() throws Exception {
        Map<String, List<RecordEval.Outcome>> runs = RecordEval.runAll(RecordSetCTest.RECORDS_C,
                Files.createTempDirectory("record-c-eval"));
        Map<String, List<Integer>> actual = RecordEval.counts(runs);
        assertEquals(PINNED, actual, "[attacks refused, attacks touched, benign touched, benign refused]");
        assertEquals(193, runs.get("cloakgate").stream().filter(o -> o.c().attack()).count());
        assertEquals(114, runs.get("cloakgate").stream().filter(o -> !o.c().attack()).count());
    }
}
