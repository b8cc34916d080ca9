package dev.cloakgate.tools;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import opennlp.tools.ml.BeamSearch;
import opennlp.tools.namefind.BioCodec;
import opennlp.tools.namefind.NameFinderME;
import opennlp.tools.namefind.NameSample;
import opennlp.tools.namefind.TokenNameFinderEvaluator;
import opennlp.tools.namefind.TokenNameFinderFactory;
import opennlp.tools.namefind.TokenNameFinderModel;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.SequenceCodec;
import opennlp.tools.util.Span;
import opennlp.tools.util.TrainingParameters;
import opennlp.tools.util.eval.FMeasure;

/**
 * Rebuilds {@code src/main/resources/models/cloakgate-person.bin}, the PERSON name-finder model the
 * gateway ships:
 * <pre>./mvnw -B -Ptrain-person-model process-test-classes</pre>
 *
 * <p>Generates the synthetic training corpus ({@link PersonCorpus}), trains an OpenNLP name finder on
 * it single-threaded, writes the model with normalised zip metadata (so the same inputs give the same
 * bytes), then reloads the written file and evaluates it on a held-out corpus that uses a different
 * seed, different templates, held-out-only locales and held-out-only vocabulary.
 */
public final class TrainPersonModel {

    /** Name of the Datafaker name dictionary inside the model, as the feature descriptor refers to it. */
    static final String DICTIONARY_RESOURCE = "person-names.dictionary";

    static final long TRAIN_SEED = 20_250_611L;
    static final long HELDOUT_SEED = 9_173_005L;
    /** Every training template is rendered this many times (casing rotates with the round). */
    static final int TRAIN_ROUNDS = 150;
    static final int HELDOUT_ROUNDS = 40;

    /**
     * Feature generators stored in the model (the runtime needs nothing else). Against OpenNLP's
     * default descriptor this narrows both windows to one token either side and drops the bigram,
     * definition and previous-map generators, which makes prediction cheaper and, on this corpus,
     * generalised better to unseen text; it adds suffix and prefix features, which let the
     * model recognise names it never saw ("-ová", "-yan", a one-character Chinese surname), and a
     * dictionary feature over Datafaker's name lists for the training locales, which recognises known
     * names in contexts it never saw. README.md has the comparison; {@link PersonModelBenchmark}
     * --experiments reruns it.
     */
    static final String FEATURES = dev.cloakgate.cloak.detect.GreedyNameTagger.FEATURES;

    /** OpenNLP's own default descriptor (opennlp/tools/namefind/ner-default-features.xml), for comparison. */
    static final String DEFAULT_FEATURES = """
        <featureGenerators cache="true" name="nameFinder">
          <generator class="opennlp.tools.util.featuregen.WindowFeatureGeneratorFactory">
            <int name="prevLength">2</int>
            <int name="nextLength">2</int>
            <generator class="opennlp.tools.util.featuregen.TokenClassFeatureGeneratorFactory"/>
          </generator>
          <generator class="opennlp.tools.util.featuregen.WindowFeatureGeneratorFactory">
            <int name="prevLength">2</int>
            <int name="nextLength">2</int>
            <generator class="opennlp.tools.util.featuregen.TokenFeatureGeneratorFactory">
              <bool name="lowercase">true</bool>
            </generator>
          </generator>
          <generator class="opennlp.tools.util.featuregen.DefinitionFeatureGeneratorFactory"/>
          <generator class="opennlp.tools.util.featuregen.PreviousMapFeatureGeneratorFactory"/>
          <generator class="opennlp.tools.util.featuregen.BigramNameFeatureGeneratorFactory"/>
          <generator class="opennlp.tools.util.featuregen.SentenceFeatureGeneratorFactory">
            <bool name="begin">true</bool>
            <bool name="end">false</bool>
          </generator>
        </featureGenerators>
        """;

    /** Fixed lines printed with the model's answers after training: a quick smell test for humans. */
    static final List<String> PROBES = List.of(
        "What is the capital of France?",
        "Acme Corp moved its Kubernetes cluster to New York on Monday.",
        "ERROR: README.md not found (see CONTRIBUTING.md)",
        "Flights from Washington to Houston are delayed.",
        "ticket 4411 assigned_to: Jane Doe",
        "user=jane.doe logged in from 10.0.0.7",
        "hi marie, can you call jean-pierre dubois before friday?",
        "CONTACT: MARIE DUBOIS, LYON, FRANCE",
        "Dr. Chiamaka Okafor and Mr O'Brien met Ana de la Cruz and Pieter van der Berg.",
        "{\"name\": \"Marie Dubois\", \"city\": \"Lyon\"}",
        "Author: Ольга Смирнова <olga@example.ru>",
        "From: 田中 太郎 <tanaka@example.jp>",
        "Γεια σου Νίκο, ο κ. Παπαδόπουλος θα έρθει αύριο.",
        "2024-05-01 12:00:01 INFO OrderService - order 77 created for customer \"Søren Kierkegaard\"");

    private TrainPersonModel() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            // no System.exit: under exec:java this runs inside the Maven JVM
            throw new IllegalArgumentException("usage: TrainPersonModel <output model path>");
        }
        Path out = Path.of(args[0]).toAbsolutePath();

        long t0 = System.nanoTime();
        PersonCorpus trainCorpus = new PersonCorpus(PersonCorpus.Split.TRAIN, TRAIN_SEED);
        List<PersonCorpus.Document> train = trainCorpus.generate(TRAIN_ROUNDS);
        PersonCorpus.Stats stats = trainCorpus.stats(train);
        System.out.printf(Locale.ROOT, "corpus: %d documents, %d samples (lines), %d tokens, %d person spans,"
                + " %d samples without a person, %d lines dropped (name boundary inside a token); generated in %.1f s%n",
            stats.documents(), stats.samples(), stats.tokens(), stats.names(), stats.samplesWithoutNames(),
            stats.droppedLines(), seconds(t0));
        System.out.println("corpus: training locales (" + PersonCorpus.trainingLocales().size() + "): "
            + String.join(" ", PersonCorpus.trainingLocales()));
        System.out.println("corpus: person spans by script " + stats.namesByScript());

        TrainingParameters params = trainingParameters();
        System.out.println("training: " + params.getObjectSettings());
        long t1 = System.nanoTime();
        TokenNameFinderModel model = train(train, params, FEATURES);
        System.out.printf(Locale.ROOT, "training: %.1f s%n", seconds(t1));

        byte[] bytes = deterministicBytes(model);
        Files.createDirectories(out.getParent());
        Files.write(out, bytes);
        System.out.printf(Locale.ROOT, "model: %s, %d bytes, sha256 %s%n", out, bytes.length, sha256(bytes));

        // everything below uses the file as written, exactly as the runtime will load it
        TokenNameFinderModel loaded = new TokenNameFinderModel(out);
        PersonCorpus heldCorpus = new PersonCorpus(PersonCorpus.Split.HELDOUT, HELDOUT_SEED);
        List<PersonCorpus.Document> heldOut = heldCorpus.generate(HELDOUT_ROUNDS);
        PersonCorpus.Stats hs = heldCorpus.stats(heldOut);
        System.out.printf(Locale.ROOT, "held-out: %d documents, %d samples, %d person spans (different seed,"
                + " templates, locale mix and vocabulary)%n", hs.documents(), hs.samples(), hs.names());
        FMeasure f = evaluate(loaded, heldOut);
        System.out.printf(Locale.ROOT, "held-out (TokenNameFinderEvaluator, exact spans): P=%.4f R=%.4f F1=%.4f%n",
            f.getPrecisionScore(), f.getRecallScore(), f.getFMeasure());
        System.out.print(Slices.of(new NameFinderME(loaded), heldOut).report());

        System.out.println("probes:");
        NameFinderME finder = new NameFinderME(loaded);
        for (String probe : PROBES) {
            finder.clearAdaptiveData();
            System.out.println("  " + markNames(finder, probe));
        }
        System.out.printf(Locale.ROOT, "total: %.1f s%n", seconds(t0));
    }

    /**
     * MAXENT (GIS), 300 iterations, cutoff 5, single-threaded (deterministic), greedy decoding.
     * The perceptron flagged far more non-names. GIS at 100 iterations scores the same F1 but trades
     * recall for precision; a privacy gateway prefers recall. Cutoff 1 overfitted to the templates.
     * BeamSize is the decoder width stored in the model manifest and used by every NameFinderME
     * built from it: OpenNLP's default of 3 scores 1.5 to 2 points of F1 more and costs 1.5 to 2
     * times as much per token, and prediction speed is the gateway's tighter constraint (README.md).
     */
    static TrainingParameters trainingParameters() {
        TrainingParameters p = new TrainingParameters();
        p.put(TrainingParameters.ALGORITHM_PARAM, "MAXENT");
        p.put(TrainingParameters.ITERATIONS_PARAM, 300);
        p.put(TrainingParameters.CUTOFF_PARAM, 5);
        p.put(TrainingParameters.THREADS_PARAM, 1);
        p.put(BeamSearch.BEAM_SIZE_PARAMETER, 1);
        p.put("PrintMessages", false);
        return p;
    }

    static TokenNameFinderModel train(List<PersonCorpus.Document> docs, TrainingParameters params, String features)
        throws IOException {
        // BIO, OpenNLP's default. BILOU (which cannot start a name right after a name start) was the
        // most accurate variant with beam 3 but worse than BIO with greedy decoding, and beam 3 costs 2x
        return train(docs, params, features, new BioCodec());
    }

    static TokenNameFinderModel train(List<PersonCorpus.Document> docs, TrainingParameters params, String features,
                                      SequenceCodec<String> codec) throws IOException {
        Map<String, Object> resources = features.contains(DICTIONARY_RESOURCE)
            ? Map.of(DICTIONARY_RESOURCE, PersonCorpus.nameDictionary()) : Map.of();
        TokenNameFinderFactory factory = TokenNameFinderFactory.create(null,
            features.getBytes(StandardCharsets.UTF_8), resources, codec);
        return NameFinderME.train("en", PersonCorpus.TYPE, PersonCorpus.samples(docs), params, factory);
    }

    /** Headline numbers, computed by OpenNLP's own evaluator (exact span match). */
    static FMeasure evaluate(TokenNameFinderModel model, List<PersonCorpus.Document> docs) throws IOException {
        TokenNameFinderEvaluator evaluator = new TokenNameFinderEvaluator(new NameFinderME(model));
        evaluator.evaluate(PersonCorpus.samples(docs));
        return evaluator.getFMeasure();
    }

    /**
     * The model zip with fixed entry times and a manifest without its timestamp and date comment:
     * OpenNLP writes both at serialisation time, which would make every rebuild differ in bytes.
     */
    static byte[] deterministicBytes(TokenNameFinderModel model) throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        model.serialize(raw);
        ByteArrayOutputStream normalised = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(raw.toByteArray()));
             ZipOutputStream zip = new ZipOutputStream(normalised)) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                byte[] data = in.readAllBytes();
                if (e.getName().equals("manifest.properties")) {
                    data = normaliseManifest(data);
                }
                ZipEntry copy = new ZipEntry(e.getName());
                copy.setTimeLocal(LocalDateTime.of(2000, 1, 1, 0, 0)); // local DOS time: no time-zone dependence
                zip.putNextEntry(copy);
                zip.write(data);
                zip.closeEntry();
            }
        }
        return normalised.toByteArray();
    }

    private static byte[] normaliseManifest(byte[] data) {
        // Properties.store writes ISO-8859-1 with escapes, a "#date" comment first and hash order after
        String text = new String(data, StandardCharsets.ISO_8859_1);
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\r?\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            lines.add(line.startsWith("Timestamp=") ? "Timestamp=0" : line);
        }
        lines.sort(null);
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Loads a serialised model with its stored beam size replaced. NameFinderME reads the decoder
     * width from the model manifest when it is constructed, and BaseModel only lets a subclass
     * change the manifest.
     */
    static TokenNameFinderModel loadWithBeamSize(InputStream in, int beamSize) throws IOException {
        return new BeamSizeOverride(in, beamSize);
    }

    private static final class BeamSizeOverride extends TokenNameFinderModel {
        private static final long serialVersionUID = 1L;

        BeamSizeOverride(InputStream in, int beamSize) throws IOException {
            super(in);
            setManifestProperty(BeamSearch.BEAM_SIZE_PARAMETER, Integer.toString(beamSize));
        }
    }

    /** The line with each found name wrapped in [[...]]. */
    static String markNames(NameFinderME finder, String line) {
        Span[] tokens = SimpleTokenizer.INSTANCE.tokenizePos(line);
        String[] words = Span.spansToStrings(tokens, line);
        StringBuilder b = new StringBuilder(line);
        Span[] found = finder.find(words);
        for (int i = found.length - 1; i >= 0; i--) {
            b.insert(tokens[found[i].getEnd() - 1].getEnd(), "]]");
            b.insert(tokens[found[i].getStart()].getStart(), "[[");
        }
        return b.toString();
    }

    /**
     * Per-slice results on the held-out corpus: recall by script and by whether the name's locale
     * was seen in training, precision and recall by document casing and text kind, and false
     * positives on documents that contain no person at all. Also a fingerprint of every prediction,
     * to check that two builds predict the same.
     */
    static final class Slices {
        private final Map<String, int[]> byScript = new TreeMap<>();   // {found, gold}
        private final Map<String, int[]> byLocaleSeen = new TreeMap<>();
        private final Map<String, int[]> byCase = new LinkedHashMap<>(); // {tp, predicted, gold}
        private final Map<String, int[]> byFamily = new TreeMap<>();
        private int tokenTp;
        private int tokenPredicted;
        private int tokenGold;
        private int negativeDocs;
        private int negativeLines;
        private int negativeFalsePositives;
        private final MessageDigest fingerprint = sha256Digest();

        static Slices of(NameFinderME finder, List<PersonCorpus.Document> docs) {
            Slices s = new Slices();
            Set<String> seen = Set.copyOf(PersonCorpus.trainingLocales());
            for (PersonCorpus.Document d : docs) {
                boolean noPerson = d.gold().stream().allMatch(List::isEmpty);
                if (noPerson) {
                    s.negativeDocs++;
                }
                for (int i = 0; i < d.samples().size(); i++) {
                    NameSample sample = d.samples().get(i);
                    if (sample.isClearAdaptiveDataSet()) {
                        finder.clearAdaptiveData();
                    }
                    Span[] predicted = finder.find(sample.getSentence());
                    for (Span p : predicted) {
                        s.fingerprint.update((d.templateId() + i + p).getBytes(StandardCharsets.UTF_8));
                    }
                    Set<Span> predictedSet = Set.of(predicted);
                    List<PersonCorpus.GoldName> gold = d.gold().get(i);
                    int tp = 0;
                    for (PersonCorpus.GoldName g : gold) {
                        boolean hit = predictedSet.contains(g.span());
                        tp += hit ? 1 : 0;
                        count(s.byScript, g.script(), hit);
                        count(s.byLocaleSeen, seen.contains(g.locale()) ? "seen in training" : "held-out-only locales", hit);
                    }
                    boolean[] goldTokens = new boolean[sample.getSentence().length];
                    for (PersonCorpus.GoldName g : gold) {
                        Arrays.fill(goldTokens, g.span().getStart(), g.span().getEnd(), true);
                    }
                    for (Span p : predicted) {
                        for (int t = p.getStart(); t < p.getEnd(); t++) {
                            s.tokenPredicted++;
                            s.tokenTp += goldTokens[t] ? 1 : 0;
                        }
                    }
                    for (boolean g : goldTokens) {
                        s.tokenGold += g ? 1 : 0;
                    }
                    add(s.byCase, d.caseMode().name(), tp, predicted.length, gold.size());
                    add(s.byFamily, d.family(), tp, predicted.length, gold.size());
                    if (noPerson) {
                        s.negativeLines++;
                        s.negativeFalsePositives += predicted.length;
                    }
                }
            }
            return s;
        }

        private static void count(Map<String, int[]> m, String key, boolean hit) {
            int[] c = m.computeIfAbsent(key, k -> new int[2]);
            c[0] += hit ? 1 : 0;
            c[1]++;
        }

        private static void add(Map<String, int[]> m, String key, int tp, int predicted, int gold) {
            int[] c = m.computeIfAbsent(key, k -> new int[3]);
            c[0] += tp;
            c[1] += predicted;
            c[2] += gold;
        }

        String fingerprint() {
            try {
                return HexFormat.of().formatHex(((MessageDigest) fingerprint.clone()).digest());
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException(e);
            }
        }

        String report() {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "held-out token level (is each name token inside some found name): P=%.4f R=%.4f%n",
                ratio(tokenTp, tokenPredicted), ratio(tokenTp, tokenGold)));
            b.append("held-out recall by script:");
            byScript.forEach((k, c) -> b.append(String.format(Locale.ROOT, " %s %.3f (%d)", k, ratio(c[0], c[1]), c[1])));
            b.append("\nheld-out recall by locale:");
            byLocaleSeen.forEach((k, c) -> b.append(String.format(Locale.ROOT, " %s %.3f (%d);", k, ratio(c[0], c[1]), c[1])));
            b.append("\nheld-out P/R by casing:");
            byCase.forEach((k, c) -> b.append(String.format(Locale.ROOT, " %s %.3f/%.3f;", k, ratio(c[0], c[1]), ratio(c[0], c[2]))));
            b.append("\nheld-out P/R by text kind:");
            byFamily.forEach((k, c) -> b.append(String.format(Locale.ROOT, " %s %.3f/%.3f;", k, ratio(c[0], c[1]), ratio(c[0], c[2]))));
            b.append(String.format(Locale.ROOT, "%nheld-out documents without any person: %d docs, %d lines, %d false-positive spans%n",
                negativeDocs, negativeLines, negativeFalsePositives));
            b.append("held-out prediction fingerprint: ").append(fingerprint()).append('\n');
            return b.toString();
        }

        private static double ratio(int a, int b) {
            return b == 0 ? Double.NaN : (double) a / b;
        }
    }

    static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha256Digest().digest(bytes));
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
