package dev.cloakgate.cloak.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.cloak.Finding;
import dev.cloakgate.tenant.DetectionSettings;

/**
 * Measures detection on the project's labelled evaluation set (hand-written tool outputs, never used for
 * training): per category, entity precision and recall (a prediction counts when it overlaps a gold value of
 * the same category), and the share of PII characters scrubbed (covered by any finding, whatever its
 * category: what matters for a leak is whether the characters reach the model). Run with
 * {@code ./mvnw -B -Pdetection-eval process-test-classes}; writes the Markdown table for DETECTION.md.
 */
public final class DetectionEval {

    /** Counts for one category. */
    public static final class Score {
        int gold;
        int predicted;
        int truePositives;
        int goldFound;
        long goldChars;
        long goldCharsCovered;

        public double precision() {
            return predicted == 0 ? 1.0 : (double) truePositives / predicted;
        }

        public double recall() {
            return gold == 0 ? 1.0 : (double) goldFound / gold;
        }

        public double scrubbed() {
            return goldChars == 0 ? 1.0 : (double) goldCharsCovered / goldChars;
        }

        public int gold() {
            return gold;
        }
    }

    /** The whole evaluation: scores per category, overall character scrub, over-redaction. */
    public record Report(Map<String, Score> byCategory, long piiChars, long piiCharsCovered, long otherChars,
            long otherCharsCovered, int documents) {
        public double scrubbed() {
            return piiChars == 0 ? 1.0 : (double) piiCharsCovered / piiChars;
        }

        public double overRedacted() {
            return otherChars == 0 ? 0.0 : (double) otherCharsCovered / otherChars;
        }
    }

    public static List<LabelledText> load(Path dir) throws IOException {
        List<LabelledText> docs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                docs.add(LabelledText.parse(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8)));
            }
        }
        return docs;
    }

    public static Report evaluate(Detection detection, List<LabelledText> docs) {
        Map<String, Score> scores = new TreeMap<>();
        long piiChars = 0;
        long piiCovered = 0;
        long otherChars = 0;
        long otherCovered = 0;
        for (LabelledText doc : docs) {
            List<Finding> found = detection.find(doc.text());
            boolean[] covered = new boolean[doc.text().length()];
            for (Finding f : found) {
                for (int i = f.start(); i < f.end(); i++) {
                    covered[i] = true;
                }
            }
            boolean[] pii = new boolean[doc.text().length()];
            for (LabelledText.Gold g : doc.gold()) {
                Score s = scores.computeIfAbsent(g.category(), k -> new Score());
                s.gold++;
                s.goldChars += g.length();
                boolean hit = false;
                for (int i = g.start(); i < g.end(); i++) {
                    pii[i] = true;
                    if (covered[i]) {
                        s.goldCharsCovered++;
                    }
                }
                for (Finding f : found) {
                    if (f.category().name().equals(g.category()) && f.start() < g.end() && g.start() < f.end()) {
                        hit = true;
                        break;
                    }
                }
                if (hit) {
                    s.goldFound++;
                }
            }
            for (Finding f : found) {
                Score s = scores.computeIfAbsent(f.category().name(), k -> new Score());
                s.predicted++;
                for (LabelledText.Gold g : doc.gold()) {
                    if (g.category().equals(f.category().name()) && f.start() < g.end() && g.start() < f.end()) {
                        s.truePositives++;
                        break;
                    }
                }
            }
            for (int i = 0; i < pii.length; i++) {
                if (Character.isWhitespace(doc.text().charAt(i))) {
                    continue;
                }
                if (pii[i]) {
                    piiChars++;
                    piiCovered += covered[i] ? 1 : 0;
                } else {
                    otherChars++;
                    otherCovered += covered[i] ? 1 : 0;
                }
            }
        }
        return new Report(scores, piiChars, piiCovered, otherChars, otherCovered, docs.size());
    }

    public static String markdown(Report r) {
        StringBuilder sb = new StringBuilder();
        sb.append("| category | labelled | found | precision | recall | characters scrubbed |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (Category c : Category.values()) {
            Score s = r.byCategory().get(c.name());
            if (s == null) {
                continue;
            }
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f%% | %.1f%% | %.1f%% |%n", c.name(), s.gold,
                    s.predicted, 100 * s.precision(), 100 * s.recall(), 100 * s.scrubbed()));
        }
        sb.append(String.format(Locale.ROOT, "%nOver %d documents: %.2f%% of PII characters scrubbed; %.2f%% of the"
                + " other non-space characters cloaked as well (over-redaction).%n", r.documents(), 100 * r.scrubbed(),
                100 * r.overRedacted()));
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "src/test/resources/detection/eval");
        Detection detection = new DetectionFactory().build(DetectionSettings.defaults());
        List<LabelledText> docs = load(dir);
        long t0 = System.nanoTime();
        Report r = evaluate(detection, docs);
        String md = markdown(r);
        System.out.println(md);
        System.out.printf(Locale.ROOT, "(%d documents evaluated in %.0f ms)%n", docs.size(), (System.nanoTime() - t0) / 1e6);
        if (args.length > 1) {
            Files.writeString(Path.of(args[1]), md);
        }
    }
}
