package dev.cloakgate.cloak.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.tenant.DetectionSettings;
import dev.cloakgate.tools.EvalSetCheck;

/**
 * Pins detection quality on the second labelled set (issue 14: written by a session that did not read the
 * detectors) and over-redaction on the texts with no personal data. The floors sit just under the first run
 * and re-pinned under the run after issue 14's work was merged (DETECTION.md "Second set, written blind"): a change that loses recall or precision on text the
 * detectors were not written against, or cloaks more of clean text, fails here, naming the category.
 */
class DetectionSetBEvalTest {
    private static final Path SET_B = Path.of("src/test/resources/detection/eval-b");
    private static final Path BENIGN = Path.of("src/test/resources/detection/benign");

    /** Floors per category: {precision, recall} in percent, just under the run after issue 14's merge ("after"). */
    private static final Map<String, double[]> FLOORS = Map.of(
            "EMAIL", new double[] { 98, 99 },
            "PHONE", new double[] { 98, 97 },
            "CREDIT_CARD", new double[] { 99, 96 },
            "IBAN", new double[] { 99, 99 },
            "US_SSN", new double[] { 99, 99 },
            "IP_ADDRESS", new double[] { 99, 99 },
            "SECRET", new double[] { 99, 99 },
            "PERSON", new double[] { 81, 83 });
    private static final double SCRUBBED_FLOOR = 91;
    private static final double OVER_REDACTION_CEILING = 2.9;
    /** Benign texts: findings per 1,000 words and percent of non-space characters cloaked, at most. */
    private static final double BENIGN_FINDINGS_CEILING = 23;
    private static final double BENIGN_CLOAKED_CEILING = 3.3;

    private static DetectionEval.Report report;
    private static DetectionEval.BenignReport benign;

    @BeforeAll
    static void evaluate() throws Exception {
        Detection d = new DetectionFactory().build(DetectionSettings.defaults());
        List<LabelledText> docs = DetectionEval.load(SET_B);
        assertTrue(docs.size() >= 95, "set B is all there: " + docs.size());
        report = DetectionEval.evaluate(d, docs);
        List<LabelledText> clean = DetectionEval.load(BENIGN);
        assertTrue(clean.size() >= 40, "the benign set is all there: " + clean.size());
        benign = DetectionEval.evaluateBenign(d, clean);
    }

    @Test
    void everyLabelInSetBIsWellFormedAndValid() throws Exception {
        assertEquals(List.of(), EvalSetCheck.errors(SET_B));
    }

    @Test
    void everyCategoryHoldsItsFirstRunOnSetB() {
        String worse = DetectionEval.belowFloors(report, FLOORS);
        assertTrue(worse.isEmpty(), "detection got worse on set B:" + worse + "\n" + DetectionEval.intervals(report));
    }

    @Test
    void setBScrubbedAndOverRedactionHold() {
        assertTrue(100 * report.scrubbed() >= SCRUBBED_FLOOR, DetectionEval.markdown(report));
        assertTrue(100 * report.overRedacted() <= OVER_REDACTION_CEILING, DetectionEval.markdown(report));
    }

    @Test
    void cleanTextIsNotCloakedMoreThanBefore() {
        assertTrue(benign.findingsPerThousandWords() <= BENIGN_FINDINGS_CEILING, DetectionEval.markdown(benign));
        assertTrue(100 * benign.cloakedShare() <= BENIGN_CLOAKED_CEILING, DetectionEval.markdown(benign));
    }
}
