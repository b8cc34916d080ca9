package dev.cloakgate.tools;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import opennlp.tools.namefind.BilouCodec;
import opennlp.tools.namefind.BioCodec;
import opennlp.tools.namefind.NameFinderME;
import opennlp.tools.namefind.TokenNameFinderModel;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.Span;
import opennlp.tools.util.TrainingParameters;
import opennlp.tools.util.eval.FMeasure;

/**
 * Prediction speed and accuracy of the PERSON model, single-threaded, fed exactly as the gateway
 * feeds it: one line at a time, SimpleTokenizer, windows of at most 64 tokens, adaptive data cleared
 * per document, lines without a letter skipped.
 *
 * <pre>
 * PersonModelBenchmark MODEL [EVAL_DIR]   speed and held-out accuracy at beam sizes 1, 3 and the stored one;
 *                                         EVAL_DIR: hand-labelled ⟦PERSON|...⟧ files, also scored and timed
 * PersonModelBenchmark --experiments [EVAL_DIR]   trains the variants compared in README.md (slow: ~1 h on 2 cores)
 * </pre>
 *
 * Throughput is UTF-8 bytes of input per second of wall time (1 MB = 10^6 bytes), after a warm-up.
 */
public final class PersonModelBenchmark {

    private static final double WARMUP_SECONDS = 5;
    private static final double MEASURE_SECONDS = 10;

    private PersonModelBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length >= 1 && args[0].equals("--experiments")) {
            experiments(args.length > 1 ? readLabelled(Path.of(args[1])) : List.of());
            return;
        }
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: PersonModelBenchmark MODEL [EVAL_DIR] | --experiments [EVAL_DIR]");
        }
        byte[] model = Files.readAllBytes(Path.of(args[0]));
        List<PersonCorpus.Document> heldOut = heldOut();
        List<String> heldOutText = texts(heldOut);
        List<Labelled> labelled = args.length > 1 ? readLabelled(Path.of(args[1])) : List.of();
        String stored = new TokenNameFinderModel(new ByteArrayInputStream(model)).getManifestProperty("BeamSize");
        System.out.printf(Locale.ROOT, "model: %s (%d bytes), stored beam size %s%n", args[0], model.length, stored);
        System.out.printf(Locale.ROOT, "synthetic held-out text: %d documents, %.2f MB%n", heldOutText.size(), megabytes(heldOutText));
        if (!labelled.isEmpty()) {
            System.out.printf(Locale.ROOT, "hand-labelled text: %d documents, %.2f MB%n", labelled.size(),
                megabytes(labelled.stream().map(Labelled::text).toList()));
        }
        for (int beam : new TreeSet<>(List.of(Integer.parseInt(stored), 1, 3))) {
            TokenNameFinderModel m = TrainPersonModel.loadWithBeamSize(new ByteArrayInputStream(model), beam);
            FMeasure f = TrainPersonModel.evaluate(m, heldOut);
            System.out.printf(Locale.ROOT, "beam %d: held-out P=%.4f R=%.4f F1=%.4f; %.2f MB/s on held-out text",
                beam, f.getPrecisionScore(), f.getRecallScore(), f.getFMeasure(), throughput(m, heldOutText));
            if (!labelled.isEmpty()) {
                System.out.printf(Locale.ROOT, "; %.2f MB/s on hand-labelled text%s%n    with adjacent findings merged:%s",
                    throughput(m, labelled.stream().map(Labelled::text).toList()), scoreLabelled(m, labelled),
                    scoreLabelled(m, labelled, true));
            }
            System.out.println();
        }
        long t0 = System.nanoTime();
        int n = 200;
        TokenNameFinderModel m = new TokenNameFinderModel(new ByteArrayInputStream(model));
        for (int i = 0; i < n; i++) {
            new NameFinderME(m);
        }
        System.out.printf(Locale.ROOT, "new NameFinderME(model): %.3f ms each (parses the feature descriptor)%n",
            (System.nanoTime() - t0) / 1e6 / n);
    }

    static List<PersonCorpus.Document> heldOut() {
        return new PersonCorpus(PersonCorpus.Split.HELDOUT, TrainPersonModel.HELDOUT_SEED)
            .generate(TrainPersonModel.HELDOUT_ROUNDS);
    }

    static List<String> texts(List<PersonCorpus.Document> docs) {
        return docs.stream().map(d -> String.join("\n", d.lines())).toList();
    }

    static double megabytes(List<String> docs) {
        long bytes = 0;
        for (String d : docs) {
            bytes += d.getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes / 1e6;
    }

    /** MB/s of {@code docs}, single-threaded, after a warm-up, fed the way the gateway feeds the model. */
    static double throughput(TokenNameFinderModel model, List<String> docs) {
        NameFinderME finder = new NameFinderME(model);
        double mb = megabytes(docs);
        long sink = 0;
        long warmupEnd = System.nanoTime() + (long) (WARMUP_SECONDS * 1e9);
        while (System.nanoTime() < warmupEnd) {
            for (String d : docs) {
                sink += detect(finder, d).size();
            }
        }
        int passes = 0;
        long t0 = System.nanoTime();
        long end = t0 + (long) (MEASURE_SECONDS * 1e9);
        do {
            for (String d : docs) {
                sink += detect(finder, d).size();
            }
            passes++;
        } while (System.nanoTime() < end);
        double secs = (System.nanoTime() - t0) / 1e9;
        if (sink == 42) {
            System.out.print(""); // keep the JIT from discarding the work
        }
        return mb * passes / secs;
    }

    /** Character spans of the names found in one document, as the gateway's detector finds them. */
    static List<int[]> detect(NameFinderME finder, String text) {
        List<int[]> out = new ArrayList<>();
        finder.clearAdaptiveData();
        int lineStart = 0;
        int n = text.length();
        while (lineStart < n) {
            int nl = text.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? n : nl;
            if (hasLetter(text, lineStart, lineEnd)) {
                String line = text.substring(lineStart, lineEnd);
                Span[] tok = SimpleTokenizer.INSTANCE.tokenizePos(line);
                for (int w = 0; w < tok.length; w += PersonCorpus.MAX_WINDOW_TOKENS) {
                    int len = Math.min(PersonCorpus.MAX_WINDOW_TOKENS, tok.length - w);
                    String[] words = new String[len];
                    for (int k = 0; k < len; k++) {
                        words[k] = tok[w + k].getCoveredText(line).toString();
                    }
                    for (Span s : finder.find(words)) {
                        out.add(new int[] {lineStart + tok[w + s.getStart()].getStart(),
                            lineStart + tok[w + s.getEnd() - 1].getEnd()});
                    }
                }
            }
            lineStart = lineEnd + 1;
        }
        return out;
    }

    private static boolean hasLetter(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.isLetter(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ hand-labelled documents

    /** A document with markup removed and the character spans of its PERSON labels. */
    record Labelled(String name, String text, List<int[]> persons) {}

    private static final Pattern LABEL = Pattern.compile("\u27E6([A-Z_]+)(?:@[A-Z]{2})?\\|(.*?)\u27E7", Pattern.DOTALL);

    /** Reads {@code NNN-kind.txt} files that mark values as ⟦CATEGORY|value⟧; only PERSON is scored. */
    static List<Labelled> readLabelled(Path dir) throws IOException {
        List<Labelled> docs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.getFileName().toString().matches("\\d{3}-[a-z]+\\.txt")).sorted().toList()) {
                String raw = Files.readString(p);
                StringBuilder text = new StringBuilder();
                List<int[]> persons = new ArrayList<>();
                Matcher m = LABEL.matcher(raw);
                int last = 0;
                while (m.find()) {
                    text.append(raw, last, m.start());
                    if (m.group(1).equals("PERSON")) {
                        persons.add(new int[] {text.length(), text.length() + m.group(2).length()});
                    }
                    text.append(m.group(2));
                    last = m.end();
                }
                text.append(raw.substring(last));
                docs.add(new Labelled(p.getFileName().toString(), text.toString(), persons));
            }
        }
        return docs;
    }

    /**
     * Exact-span P/R/F1, and at letter level the share of labelled name letters inside some found
     * name (recall) and of found letters inside some labelled name (precision). The second line
     * leaves out labels that look like logins or e-mail local parts (containing '.', '_', '@' or a
     * digit): the hand-labelled set counts "jane.doe" as PERSON, this model is trained not to.
     */
    static String scoreLabelled(TokenNameFinderModel model, List<Labelled> docs) {
        return scoreLabelled(model, docs, false);
    }

    /** @param merge join found names separated only by white space, as a runtime could (see README.md) */
    static String scoreLabelled(TokenNameFinderModel model, List<Labelled> docs, boolean merge) {
        NameFinderME finder = new NameFinderME(model);
        StringBuilder b = new StringBuilder();
        for (boolean withoutLogins : new boolean[] {false, true}) {
            int tp = 0;
            int predicted = 0;
            int gold = 0;
            long goldLetters = 0;
            long goldLettersFound = 0;
            long foundLetters = 0;
            long foundLettersGold = 0;
            for (Labelled d : docs) {
                List<int[]> found = merge ? mergeAdjacent(detect(finder, d.text()), d.text()) : detect(finder, d.text());
                List<int[]> persons = d.persons().stream()
                    .filter(g -> !withoutLogins || !looksLikeLogin(d.text().substring(g[0], g[1]))).toList();
                boolean[] inGold = new boolean[d.text().length()];
                boolean[] inAnyGold = new boolean[d.text().length()]; // logins too: finding one is no false positive
                for (int[] g : d.persons()) {
                    Arrays.fill(inAnyGold, g[0], g[1], true);
                }
                for (int[] g : persons) {
                    Arrays.fill(inGold, g[0], g[1], true);
                }
                boolean[] inFound = new boolean[d.text().length()];
                for (int[] f : found) {
                    Arrays.fill(inFound, f[0], f[1], true);
                }
                predicted += found.size();
                gold += persons.size();
                for (int[] g : persons) {
                    if (found.stream().anyMatch(f -> f[0] == g[0] && f[1] == g[1])) {
                        tp++;
                    }
                }
                for (int i = 0; i < d.text().length(); i++) {
                    if (!Character.isLetter(d.text().charAt(i))) {
                        continue;
                    }
                    goldLetters += inGold[i] ? 1 : 0;
                    goldLettersFound += inGold[i] && inFound[i] ? 1 : 0;
                    foundLetters += inFound[i] ? 1 : 0;
                    foundLettersGold += inFound[i] && inAnyGold[i] ? 1 : 0;
                }
            }
            double p = ratio(tp, predicted);
            double r = ratio(tp, gold);
            b.append(String.format(Locale.ROOT, "%n    hand-labelled PERSON%s: exact P=%.3f R=%.3f F1=%.3f (%d labelled, %d found);"
                    + " letters P=%.3f R=%.3f",
                withoutLogins ? " without login-like labels" : "", p, r, p + r == 0 ? 0 : 2 * p * r / (p + r), gold, predicted,
                ratio(foundLettersGold, foundLetters), ratio(goldLettersFound, goldLetters)));
        }
        return b.toString();
    }

    /**
     * Joins consecutive findings with only spaces between them. The model can end a name early and
     * start another on the next token ("[Sarah] [Mitchell]"): OpenNLP's maxent keeps no weight for
     * outcome pairs never seen in training, so "a name starts right after a name" is never penalised.
     */
    static List<int[]> mergeAdjacent(List<int[]> found, String text) {
        List<int[]> out = new ArrayList<>();
        for (int[] f : found) {
            int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && f[0] >= last[1] && text.substring(last[1], f[0]).chars().allMatch(c -> c == ' ')) {
                last[1] = f[1];
            } else {
                out.add(new int[] {f[0], f[1]});
            }
        }
        return out;
    }

    private static boolean looksLikeLogin(String value) {
        return value.chars().anyMatch(c -> c == '.' || c == '_' || c == '@' || Character.isDigit(c));
    }

    private static double ratio(long a, long b) {
        return b == 0 ? 0 : (double) a / b;
    }

    // ------------------------------------------------------------------ training variants

    private record Variant(String name, String algorithm, int iterations, int cutoff, String features, boolean bilou) {}

    private static final String G = "opennlp.tools.util.featuregen.";

    private static String generator(String factory, String body) {
        return "<generator class=\"" + G + factory + "\">" + body + "</generator>";
    }

    private static String window(int n, String inner) {
        return generator("WindowFeatureGeneratorFactory",
            "<int name=\"prevLength\">" + n + "</int><int name=\"nextLength\">" + n + "</int>" + inner);
    }

    private static String descriptor(String... generators) {
        return "<featureGenerators cache=\"true\" name=\"nameFinder\">" + String.join("", generators) + "</featureGenerators>";
    }

    private static final String TOKEN_CLASS = generator("TokenClassFeatureGeneratorFactory", "");
    private static final String TOKEN = generator("TokenFeatureGeneratorFactory", "<bool name=\"lowercase\">true</bool>");
    private static final String SENTENCE = generator("SentenceFeatureGeneratorFactory",
        "<bool name=\"begin\">true</bool><bool name=\"end\">false</bool>");
    private static final String DICTIONARY = generator("DictionaryFeatureGeneratorFactory",
        "<str name=\"dict\">" + TrainPersonModel.DICTIONARY_RESOURCE + "</str>");

    private static String affixes(int suffix, int prefix) {
        return generator("SuffixFeatureGeneratorFactory", "<int name=\"length\">" + suffix + "</int>")
            + generator("PrefixFeatureGeneratorFactory", "<int name=\"length\">" + prefix + "</int>");
    }

    /** The parameter and feature choices compared in README.md, each trained on the full corpus. */
    private static void experiments(List<Labelled> labelled) throws IOException {
        String chosen = TrainPersonModel.FEATURES;
        List<Variant> variants = List.of(
            new Variant("OpenNLP default features, MAXENT 100, cutoff 5", "MAXENT", 100, 5, TrainPersonModel.DEFAULT_FEATURES, false),
            new Variant("class+token windows +-1/+-2, MAXENT 300", "MAXENT", 300, 5,
                descriptor(window(1, TOKEN_CLASS), window(2, TOKEN), SENTENCE), false),
            new Variant("  + suffix 4/prefix 3", "MAXENT", 300, 5,
                descriptor(window(1, TOKEN_CLASS), window(2, TOKEN), SENTENCE, affixes(4, 3)), false),
            new Variant("  + suffix 4/prefix 3 + dictionary", "MAXENT", 300, 5,
                descriptor(window(1, TOKEN_CLASS), window(2, TOKEN), SENTENCE, affixes(4, 3), DICTIONARY), false),
            new Variant("chosen: windows +-1/+-1, suffix 3/prefix 2, dictionary", "MAXENT", 300, 5, chosen, false),
            new Variant("chosen without dictionary", "MAXENT", 300, 5,
                descriptor(window(1, TOKEN_CLASS), window(1, TOKEN), SENTENCE, affixes(3, 2)), false),
            new Variant("chosen, token class of the current token only", "MAXENT", 300, 5,
                descriptor(TOKEN_CLASS, window(1, TOKEN), SENTENCE, affixes(3, 2), DICTIONARY), false),
            new Variant("chosen, no windows (current token only)", "MAXENT", 300, 5,
                descriptor(TOKEN_CLASS, TOKEN, SENTENCE, affixes(3, 2), DICTIONARY), false),
            new Variant("chosen, MAXENT 100", "MAXENT", 100, 5, chosen, false),
            new Variant("chosen, PERCEPTRON 300", "PERCEPTRON", 300, 5, chosen, false),
            new Variant("chosen, BILOU codec", "MAXENT", 300, 5, chosen, true));
        PersonCorpus corpus = new PersonCorpus(PersonCorpus.Split.TRAIN, TrainPersonModel.TRAIN_SEED);
        List<PersonCorpus.Document> train = corpus.generate(TrainPersonModel.TRAIN_ROUNDS);
        List<PersonCorpus.Document> heldOut = heldOut();
        List<String> text = texts(heldOut);
        for (Variant v : variants) {
            TrainingParameters p = TrainPersonModel.trainingParameters();
            p.put(TrainingParameters.ALGORITHM_PARAM, v.algorithm());
            p.put(TrainingParameters.ITERATIONS_PARAM, v.iterations());
            p.put(TrainingParameters.CUTOFF_PARAM, v.cutoff());
            long t0 = System.nanoTime();
            TokenNameFinderModel model = TrainPersonModel.train(train, p, v.features(),
                v.bilou() ? new BilouCodec() : new BioCodec());
            double trainSeconds = TrainPersonModel.seconds(t0);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            model.serialize(bytes);
            for (int beam : new int[] {3, 1}) {
                TokenNameFinderModel m = TrainPersonModel.loadWithBeamSize(new ByteArrayInputStream(bytes.toByteArray()), beam);
                FMeasure f = TrainPersonModel.evaluate(m, heldOut);
                System.out.printf(Locale.ROOT, "%-58s beam %d | train %4.0f s | %8d bytes | held-out P %.3f R %.3f F1 %.3f | %.2f MB/s%s%n",
                    v.name(), beam, trainSeconds, bytes.size(), f.getPrecisionScore(), f.getRecallScore(), f.getFMeasure(),
                    throughput(m, text), labelled.isEmpty() ? "" : scoreLabelled(m, labelled));
            }
        }
    }
}
