package dev.cloakgate.cloak.eval;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.tenant.DetectionSettings;

/**
 * Pins detection quality on the labelled evaluation set: the numbers published in DETECTION.md may only get
 * better. A change that loses recall or precision in any category fails here, naming it.
 */
class DetectionEvalTest {
    /** Floors per category: {precision, recall} in percent, a little under the published results. */
    private static final Map<String, double[]> FLOORS = Map.of(
            "EMAIL", new double[] { 98, 99 },
            "PHONE", new double[] { 97, 98 },
            "CREDIT_CARD", new double[] { 96, 99 },
            "IBAN", new double[] { 96, 99 },
            "US_SSN", new double[] { 97, 92 },
            "IP_ADDRESS", new double[] { 96, 96 },
            "SECRET", new double[] { 94, 98 },
            "PERSON", new double[] { 82, 83 });
    private static final double SCRUBBED_FLOOR = 95;
    /** Issue 14: 1.75% measured after the merge; the limit is the 2.15% of the run before it. */
    private static final double OVER_REDACTION_CEILING = 1.9;

    private static DetectionEval.Report report;

    @BeforeAll
    static void evaluate() throws Exception {
        Detection d = new DetectionFactory().build(DetectionSettings.defaults());
        List<LabelledText> docs = DetectionEval.load(Path.of("src/test/resources/detection/eval"));
        assertTrue(docs.size() >= 150, "the evaluation set is all there: " + docs.size());
        report = DetectionEval.evaluate(d, docs);
    }

    @Test
    void everyCategoryHoldsItsPublishedPrecisionAndRecall() {
        String worse = DetectionEval.belowFloors(report, FLOORS);
        assertTrue(worse.isEmpty(), "detection got worse:" + worse + "\n" + DetectionEval.markdown(report));
    }

    @Test
    void mostPiiCharactersAreScrubbedAndLittleElseIs() {
        assertTrue(100 * report.scrubbed() >= SCRUBBED_FLOOR, DetectionEval.markdown(report));
        assertTrue(100 * report.overRedacted() <= OVER_REDACTION_CEILING, DetectionEval.markdown(report));
    }
}
