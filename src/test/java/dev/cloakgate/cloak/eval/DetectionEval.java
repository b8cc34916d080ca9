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

    /**
     * The categories of {@code r} below their floors ({category: {precision, recall}} in percent), one line each
     * naming both figures; empty when every category holds. The evaluation tests pin their sets with it.
     */
    public static String belowFloors(Report r, Map<String, double[]> floors) {
        StringBuilder worse = new StringBuilder();
        floors.forEach((category, floor) -> {
            Score s = r.byCategory().get(category);
            if (s == null || 100 * s.precision() < floor[0] || 100 * s.recall() < floor[1]) {
                worse.append(String.format("%n%s precision %.1f%% (floor %.0f%%), recall %.1f%% (floor %.0f%%)", category,
                        s == null ? 0 : 100 * s.precision(), floor[0], s == null ? 0 : 100 * s.recall(), floor[1]));
            }
        });
        return worse.toString();
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

    // ---- issue 14: the second set (eval-b) is published with Wilson intervals; the benign set is scored by over-redaction

    /** Wilson score interval at 95% for {@code k} successes out of {@code n}: {low, high} as fractions. */
    public static double[] wilson(int k, int n) {
        if (n == 0) {
            return new double[] { 0, 1 };
        }
        double z = 1.959964;
        double p = (double) k / n;
        double denominator = 1 + z * z / n;
        double centre = (p + z * z / (2.0 * n)) / denominator;
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denominator;
        return new double[] { Math.max(0, centre - half), Math.min(1, centre + half) };
    }

    /** Per category: recall and precision with their Wilson 95% intervals. */
    public static String intervals(Report r) {
        StringBuilder sb = new StringBuilder();
        sb.append("| category | labelled | recall (95% CI) | found | precision (95% CI) |\n");
        sb.append("|---|---|---|---|---|\n");
        for (Category c : Category.values()) {
            Score s = r.byCategory().get(c.name());
            if (s == null) {
                continue;
            }
            double[] rc = wilson(s.goldFound, s.gold);
            double[] pc = wilson(s.truePositives, s.predicted);
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d/%d = %.1f%% (%.1f–%.1f) | %d | %d/%d = %.1f%% (%.1f–%.1f) |%n",
                    c.name(), s.gold, s.goldFound, s.gold, 100 * s.recall(), 100 * rc[0], 100 * rc[1], s.predicted,
                    s.truePositives, s.predicted, 100 * s.precision(), 100 * pc[0], 100 * pc[1]));
        }
        return sb.toString();
    }

    /** Over-redaction on texts with no personal data: every finding is a false positive. */
    public record BenignReport(Map<String, Integer> findings, Map<String, Long> charsCloaked, long words,
            long nonSpaceChars, long nonSpaceCharsCloaked, int documents, int documentsTouched) {
        public double findingsPerThousandWords() {
            return words == 0 ? 0 : 1000.0 * findings.values().stream().mapToInt(Integer::intValue).sum() / words;
        }

        public double cloakedShare() {
            return nonSpaceChars == 0 ? 0 : (double) nonSpaceCharsCloaked / nonSpaceChars;
        }
    }

    public static BenignReport evaluateBenign(Detection detection, List<LabelledText> docs) {
        Map<String, Integer> findings = new TreeMap<>();
        Map<String, Long> chars = new TreeMap<>();
        long words = 0;
        long nonSpace = 0;
        long cloaked = 0;
        int touched = 0;
        for (LabelledText doc : docs) {
            if (!doc.gold().isEmpty()) {
                throw new IllegalArgumentException(doc.name() + ": a benign text carries labels");
            }
            String text = doc.text();
            words += text.isBlank() ? 0 : text.strip().split("\\s+").length;
            List<Finding> found = detection.find(text);
            touched += found.isEmpty() ? 0 : 1;
            Category[] coveredBy = new Category[text.length()];
            for (Finding f : found) {
                findings.merge(f.category().name(), 1, Integer::sum);
                for (int i = f.start(); i < f.end(); i++) {
                    coveredBy[i] = f.category();
                }
            }
            for (int i = 0; i < text.length(); i++) {
                if (Character.isWhitespace(text.charAt(i))) {
                    continue;
                }
                nonSpace++;
                if (coveredBy[i] != null) {
                    cloaked++;
                    chars.merge(coveredBy[i].name(), 1L, Long::sum);
                }
            }
        }
        return new BenignReport(findings, chars, words, nonSpace, cloaked, docs.size(), touched);
    }

    public static String markdown(BenignReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("| category | findings | per 1,000 words | characters cloaked | share of characters |\n");
        sb.append("|---|---|---|---|---|\n");
        for (Category c : Category.values()) {
            Integer n = r.findings().get(c.name());
            if (n == null) {
                continue;
            }
            long ch = r.charsCloaked().getOrDefault(c.name(), 0L);
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %d | %.2f%% |%n", c.name(), n,
                    r.words() == 0 ? 0 : 1000.0 * n / r.words(), ch, r.nonSpaceChars() == 0 ? 0 : 100.0 * ch / r.nonSpaceChars()));
        }
        sb.append(String.format(Locale.ROOT, "%nOver %d texts with no personal data (%d words, %d non-space characters):"
                + " %.2f findings per 1,000 words, %.2f%% of the non-space characters cloaked, %d of %d texts touched.%n",
                r.documents(), r.words(), r.nonSpaceChars(), r.findingsPerThousandWords(), 100 * r.cloakedShare(),
                r.documentsTouched(), r.documents()));
        return sb.toString();
    }

    /**
     * {@code DetectionEval DIR [OUT] [--intervals | --benign]}: {@code --intervals} adds the Wilson table (the second
     * set), {@code --benign} scores a set of texts with no personal data by over-redaction instead.
     */
    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        boolean benign = false;
        boolean withIntervals = false;
        for (String a : args) {
            switch (a) {
                case "--benign" -> benign = true;
                case "--intervals" -> withIntervals = true;
                default -> positional.add(a);
            }
        }
        Path dir = Path.of(positional.isEmpty() ? "src/test/resources/detection/eval" : positional.get(0));
        Detection detection = new DetectionFactory().build(DetectionSettings.defaults());
        List<LabelledText> docs = load(dir);
        long t0 = System.nanoTime();
        String md;
        if (benign) {
            md = markdown(evaluateBenign(detection, docs));
        } else {
            Report r = evaluate(detection, docs);
            md = markdown(r) + (withIntervals ? "\n" + intervals(r) : "");
        }
        System.out.println(md);
        System.out.printf(Locale.ROOT, "(%d documents evaluated in %.0f ms)%n", docs.size(), (System.nanoTime() - t0) / 1e6);
        if (positional.size() > 1) {
            Files.writeString(Path.of(positional.get(1)), md);
        }
    }
}
