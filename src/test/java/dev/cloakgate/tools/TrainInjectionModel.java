package dev.cloakgate.tools;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.zip.CRC32;

import dev.cloakgate.policy.control.InjectionClassifier;
import dev.cloakgate.policy.control.InjectionFeatures;
import dev.cloakgate.tools.InjectionCorpus.Example;
import dev.cloakgate.tools.InjectionCorpus.Split;

/**
 * Rebuilds {@code src/main/resources/models/cloakgate-injection.bin}, the learned signal of
 * {@code instruction_injection} ({@link InjectionClassifier}):
 * <pre>./mvnw -B -Ptrain-injection-model process-test-classes</pre>
 *
 * <p>Builds the data ({@link InjectionCorpus}), trains a logistic regression on the TRAIN split with plain
 * stochastic gradient descent (fixed seed, fixed example order per epoch, one thread, StrictMath), quantises
 * the weights to 16 bits, picks the threshold on the VALIDATION split (the lowest score that keeps at most
 * {@value #TARGET_FPR} of validation benign texts flagged, never below 0.5), writes the file, reloads it and
 * prints precision, recall and false-positive rate with 95% Wilson intervals on the HELDOUT split, per
 * language and per source. Same inputs, same bytes.
 */
public final class TrainInjectionModel {

    static final long SEED = 20_261_201L;
    static final int BITS = 18;
    static final int EPOCHS = 8;
    static final double LEARNING_RATE = 0.4;
    static final double L2 = 1e-6;
    static final double TARGET_FPR = 0.0025;

    private TrainInjectionModel() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: TrainInjectionModel <output model path> <public.tsv>");
        }
        long start = System.nanoTime();
        Path data = Path.of(args[1]);
        System.out.printf(Locale.ROOT, "public data: %s, sha256 %s%n", data,
                Files.isRegularFile(data) ? TrainPersonModel.sha256(Files.readAllBytes(data)) : "missing");
        List<Example> corpus = InjectionCorpus.build(SEED, InjectionCorpus.FULL, data);
        describe(corpus);
        byte[] model = train(corpus, SEED);
        Path out = Path.of(args[0]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(out, model);
        InjectionClassifier classifier = InjectionClassifier.load(Files.readAllBytes(out));
        System.out.printf(Locale.ROOT, "model: %s, %d bytes, sha256 %s, threshold %.4f, %.1f s%n", out, model.length,
                TrainPersonModel.sha256(model), classifier.threshold(), (System.nanoTime() - start) / 1e9);
        evaluate(classifier, corpus, Split.VALIDATION);
        evaluate(classifier, corpus, Split.HELDOUT);
    }

    /** Trains on the TRAIN split, picks the threshold on VALIDATION, and returns the model file's bytes. */
    static byte[] train(List<Example> corpus, long seed) {
        List<int[]> features = new ArrayList<>();
        List<Example> train = new ArrayList<>();
        for (Example e : corpus) {
            if (e.split() == Split.TRAIN) {
                train.add(e);
                features.add(features(e.text()));
            }
        }
        int positives = (int) train.stream().filter(Example::injection).count();
        int negatives = train.size() - positives;
        // each class weighs the same in total
        double positiveWeight = train.size() / (2.0 * positives);
        double negativeWeight = train.size() / (2.0 * negatives);
        double[] w = new double[1 << BITS];
        double bias = 0;
        Integer[] order = new Integer[train.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Random random = new Random(seed);
        for (int epoch = 0; epoch < EPOCHS; epoch++) {
            List<Integer> shuffled = new ArrayList<>(Arrays.asList(order));
            java.util.Collections.shuffle(shuffled, random);
            double rate = LEARNING_RATE / (1 + epoch);
            for (int i : shuffled) {
                int[] f = features.get(i);
                if (f.length == 0) {
                    continue;
                }
                double v = 1 / Math.sqrt(f.length);
                double z = bias;
                for (int b : f) {
                    z += w[b] * v;
                }
                boolean y = train.get(i).injection();
                double g = (sigmoid(z) - (y ? 1 : 0)) * (y ? positiveWeight : negativeWeight);
                bias -= rate * g;
                for (int b : f) {
                    w[b] -= rate * (g * v + L2 * w[b]);
                }
            }
        }
        double max = 0;
        for (double x : w) {
            max = Math.max(max, Math.abs(x));
        }
        double scale = max / Short.MAX_VALUE;
        short[] q = new short[w.length];
        for (int i = 0; i < w.length; i++) {
            q[i] = (short) Math.round(w[i] / scale);
        }
        InjectionClassifier provisional = InjectionClassifier.load(write(0.5, bias, scale, q));
        double[] benign = corpus.stream().filter(e -> e.split() == Split.VALIDATION && !e.injection())
                .mapToDouble(e -> provisional.score(e.text())).sorted().toArray();
        int allowed = (int) Math.floor(TARGET_FPR * benign.length);
        double threshold = Math.max(0.5, Math.nextUp(benign[benign.length - 1 - allowed]));
        return write(Math.min(threshold, 0.999), bias, scale, q);
    }

    static int[] features(String text) {
        int[][] buffer = { new int[64] };
        int[] n = { 0 };
        InjectionFeatures.extract(text, BITS, bucket -> {
            if (n[0] == buffer[0].length) {
                buffer[0] = Arrays.copyOf(buffer[0], n[0] * 2);
            }
            buffer[0][n[0]++] = bucket;
        });
        return Arrays.copyOf(buffer[0], n[0]);
    }

    private static double sigmoid(double z) {
        return 1 / (1 + StrictMath.exp(-z));
    }

    /** The model file, in the format {@link InjectionClassifier} documents. */
    static byte[] write(double threshold, double bias, double scale, short[] weights) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(0x43474E4A);
            out.writeInt(1);
            out.writeInt(InjectionFeatures.VERSION);
            out.writeInt(BITS);
            out.writeDouble(threshold);
            out.writeDouble(bias);
            out.writeDouble(scale);
            for (short s : weights) {
                out.writeShort(s);
            }
            out.flush();
            CRC32 crc = new CRC32();
            crc.update(bytes.toByteArray());
            out.writeInt((int) crc.getValue());
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void describe(List<Example> corpus) {
        Map<String, int[]> counts = new TreeMap<>();
        for (Example e : corpus) {
            counts.computeIfAbsent(e.source() + " " + e.lang(), k -> new int[6])[e.split().ordinal() * 2 + (e.injection() ? 0 : 1)]++;
        }
        System.out.println("data (source lang: train +/-, validation +/-, held-out +/-)");
        counts.forEach((k, c) -> System.out.printf(Locale.ROOT, "  %-22s %5d/%-5d %5d/%-5d %5d/%-5d%n", k, c[0], c[1], c[2], c[3], c[4], c[5]));
    }

    static void evaluate(InjectionClassifier classifier, List<Example> corpus, Split split) {
        System.out.printf(Locale.ROOT, "%s split, threshold %.4f%n", split, classifier.threshold());
        // the operating curve, for whoever combines this signal with others
        for (double t : new double[] { 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99 }) {
            int[] c = new int[4];
            for (Example e : corpus) {
                if (e.split() == split) {
                    boolean flagged = classifier.score(e.text()) >= t;
                    c[e.injection() ? (flagged ? 0 : 1) : (flagged ? 2 : 3)]++;
                }
            }
            System.out.printf(Locale.ROOT, "  at %.2f   recall %s  FPR %s%n", t, rate(c[0], c[0] + c[1]), rate(c[2], c[2] + c[3]));
        }
        report("all", classifier, corpus, split, e -> "all");
        report("language", classifier, corpus, split, Example::lang);
        report("source", classifier, corpus, split, Example::source);
        // a template renders to many examples, so one wrong template moves a rate a lot: name the worst ones
        Map<String, int[]> families = new TreeMap<>();
        for (Example e : corpus) {
            if (e.split() == split) {
                int[] c = families.computeIfAbsent(e.family() + (e.injection() ? " (+)" : " (-)"), k -> new int[2]);
                c[0] += classifier.flags(e.text()) == e.injection() ? 0 : 1;
                c[1]++;
            }
        }
        families.forEach((k, c) -> {
            if (c[0] * 5 >= c[1] && c[0] > 0) {
                System.out.printf(Locale.ROOT, "  family   %-40s wrong %d/%d%n", k, c[0], c[1]);
            }
        });
    }

    private static void report(String by, InjectionClassifier classifier, List<Example> corpus, Split split,
            Function<Example, String> key) {
        Map<String, int[]> m = new TreeMap<>();  // tp, fn, fp, tn
        for (Example e : corpus) {
            if (e.split() != split) {
                continue;
            }
            boolean flagged = classifier.flags(e.text());
            int[] c = m.computeIfAbsent(key.apply(e), k -> new int[4]);
            c[e.injection() ? (flagged ? 0 : 1) : (flagged ? 2 : 3)]++;
        }
        m.forEach((k, c) -> System.out.printf(Locale.ROOT, "  %-8s %-16s recall %s  FPR %s  precision %s%n", by, k,
                rate(c[0], c[0] + c[1]), rate(c[2], c[2] + c[3]), rate(c[0], c[0] + c[2])));
    }

    static String rate(int k, int n) {
        if (n == 0) {
            return String.format(Locale.ROOT, "%-30s", "-");
        }
        double[] ci = dev.cloakgate.cloak.eval.DetectionEval.wilson(k, n);
        return String.format(Locale.ROOT, "%-30s", String.format(Locale.ROOT, "%d/%d=%.1f%% [%.1f, %.1f]", k, n,
                100.0 * k / n, 100 * ci[0], 100 * ci[1]));
    }
}
