package dev.cloakgate.cloak.eval;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.cloak.Finding;
import dev.cloakgate.tenant.DetectionSettings;

/**
 * Issue 14, PERSON precision: the development set of texts with no personal data ({@code detection/benign-dev},
 * written for this item: places, stations, eponyms, recipes, changelogs, build logs, catalogues, clubs, German
 * prose) is cloaked far less than before, while PERSON on the first labelled set keeps its recall.
 */
class NamePrecisionTest {
    private static final Path DEV = Path.of("src/test/resources/detection/benign-dev");
    private static final Path EVAL = Path.of("src/test/resources/detection/eval");
    /**
     * Just above the run with {@code NameVeto} (21.85 PERSON findings per 1,000 words; 65.55 before it), and just
     * under it on the first set (PERSON recall 72.8% as before, precision 76.7%, 75.0% before): DETECTION.md
     * "What is not a name". With the retrained PERSON model of the same issue merged beside it the development
     * set reads 24.64 per 1,000 words (the new model proposes more native words; its own limits say so).
     */
    private static final double DEV_PERSON_PER_THOUSAND_CEILING = 25;
    private static final double EVAL_PERSON_RECALL_FLOOR = 72.5;
    private static final double EVAL_PERSON_PRECISION_FLOOR = 76.5;

    private static Detection detection;
    private static DetectionEval.BenignReport dev;
    private static DetectionEval.Report eval;

    @BeforeAll
    static void evaluate() throws Exception {
        detection = new DetectionFactory().build(DetectionSettings.defaults());
        List<LabelledText> docs = DetectionEval.load(DEV);
        assertTrue(docs.size() >= 30, "the development set is all there: " + docs.size());
        dev = DetectionEval.evaluateBenign(detection, docs);
        eval = DetectionEval.evaluate(detection, DetectionEval.load(EVAL));
        StringBuilder sb = new StringBuilder(DetectionEval.markdown(dev));
        for (LabelledText d : docs) {
            for (Finding f : detection.find(d.text())) {
                sb.append(d.name()).append(' ').append(f.category()).append(" [")
                        .append(d.text(), f.start(), f.end()).append("]\n");
            }
        }
        sb.append(DetectionEval.markdown(eval));
        System.out.println(sb);
    }

    @Test
    void cleanTextHasFewPersonFindings() {
        int person = dev.findings().getOrDefault("PERSON", 0);
        double perThousand = 1000.0 * person / dev.words();
        assertTrue(perThousand <= DEV_PERSON_PER_THOUSAND_CEILING,
                String.format("%.2f PERSON findings per 1,000 words on the development set", perThousand));
    }

    @Test
    void personRecallAndPrecisionHoldOnTheFirstSet() {
        DetectionEval.Score p = eval.byCategory().get("PERSON");
        assertTrue(100 * p.recall() >= EVAL_PERSON_RECALL_FLOOR, DetectionEval.markdown(eval));
        assertTrue(100 * p.precision() >= EVAL_PERSON_PRECISION_FLOOR, DetectionEval.markdown(eval));
    }
}
