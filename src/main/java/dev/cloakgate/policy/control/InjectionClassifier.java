package dev.cloakgate.policy.control;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;

/**
 * The learned signal of {@code instruction_injection}: a logistic regression over hashed word and
 * character n-grams ({@link InjectionFeatures}) that estimates the probability that a text is an
 * instruction addressed to whoever reads a tool's output (the model or agent), asking it to act: override
 * its instructions, reveal its prompt, or act on the user's behalf (transfer, grant access, delete,
 * send or forward data, buy or sell, change settings, post). Immutable after loading, so one instance is
 * shared by every thread.
 *
 * <p>The bundled model, {@value #RESOURCE}, is rebuilt byte for byte by
 * {@code ./mvnw -B -Ptrain-injection-model process-test-classes}. Its threshold was chosen on a validation
 * split to keep false positives on benign tool-output text low; POLICY.md ("Learned signal") has the data,
 * the held-out numbers and the limits.
 *
 * <h2>Model file (big-endian)</h2>
 * <pre>
 * int    magic 0x43474E4A ("CGNJ")
 * int    format version ({@value #FORMAT})
 * int    feature version ({@link InjectionFeatures#VERSION})
 * int    bits (2^bits weight buckets)
 * double threshold (probability at or above which {@link #flags} is true)
 * double bias
 * double scale (a weight is its stored short times scale)
 * short  weights[2^bits]
 * int    CRC32 of every byte before it
 * </pre>
 * The score is {@code sigmoid(bias + scale * sum(weights[bucket]) / sqrt(n))} over the n features of the
 * text (a feature seen twice counts twice), so a long passage does not score higher just for being long.
 */
public final class InjectionClassifier {

    /** Classpath resource of the bundled model. */
    public static final String RESOURCE = "models/cloakgate-injection.bin";
    static final int MAGIC = 0x43474E4A;
    static final int FORMAT = 1;
    private static final String REBUILD = "; reinstall the gateway from an unmodified build, or rebuild the model with "
            + "./mvnw -B -Ptrain-injection-model process-test-classes";

    private final int bits;
    private final double threshold;
    private final double bias;
    private final double scale;
    private final short[] weights;

    private InjectionClassifier(int bits, double threshold, double bias, double scale, short[] weights) {
        this.bits = bits;
        this.threshold = threshold;
        this.bias = bias;
        this.scale = scale;
        this.weights = weights;
    }

    /** Loads the bundled model; an IllegalStateException (the gateway must not start) when it is missing or unusable. */
    public static InjectionClassifier bundled() {
        try (InputStream in = InjectionClassifier.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the injection classifier model " + RESOURCE
                        + " is missing from the classpath" + REBUILD);
            }
            return load(in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException("the injection classifier model " + RESOURCE + " could not be read" + REBUILD, e);
        }
    }

    /** Reads a model file; an IllegalStateException saying what to do when it is truncated, corrupt or of another version. */
    public static InjectionClassifier load(byte[] file) {
        if (file.length < 44) {
            throw corrupt("is truncated (" + file.length + " bytes)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(file))) {
            if (in.readInt() != MAGIC) {
                throw corrupt("is not a cloakgate injection model (wrong magic number)");
            }
            int format = in.readInt();
            int features = in.readInt();
            if (format != FORMAT || features != InjectionFeatures.VERSION) {
                throw corrupt("has format " + format + " and feature version " + features + ", this gateway reads format "
                        + FORMAT + " and feature version " + InjectionFeatures.VERSION);
            }
            int bits = in.readInt();
            if (bits < 8 || bits > 24) {
                throw corrupt("declares " + bits + " hash bits (8 to 24 allowed)");
            }
            long expected = 4L * 4 + 3 * 8 + 2L * (1 << bits) + 4;
            if (file.length != expected) {
                throw corrupt("has " + file.length + " bytes where " + expected + " were expected (truncated or padded)");
            }
            double threshold = in.readDouble();
            double bias = in.readDouble();
            double scale = in.readDouble();
            short[] weights = new short[1 << bits];
            for (int i = 0; i < weights.length; i++) {
                weights[i] = in.readShort();
            }
            int crc = in.readInt();
            CRC32 check = new CRC32();
            check.update(file, 0, file.length - 4);
            if ((int) check.getValue() != crc) {
                throw corrupt("fails its checksum (corrupted)");
            }
            if (!(threshold > 0 && threshold < 1) || !Double.isFinite(bias) || !(scale > 0) || !Double.isFinite(scale)) {
                throw corrupt("has an invalid threshold, bias or scale");
            }
            return new InjectionClassifier(bits, threshold, bias, scale, weights);
        } catch (IOException e) {
            throw corrupt("could not be read: " + e.getClass().getSimpleName());
        }
    }

    private static IllegalStateException corrupt(String what) {
        return new IllegalStateException("the injection classifier model " + RESOURCE + " " + what + REBUILD);
    }

    /** Probability in (0, 1) that {@code text} is an instruction to whoever reads it to act. Linear in its length. */
    public double score(CharSequence text) {
        return sigmoid(margin(text));
    }

    /** Whether {@link #score} reaches the model's threshold. */
    public boolean flags(CharSequence text) {
        return score(text) >= threshold;
    }

    /** The probability at or above which {@link #flags} is true (chosen on the validation split, stored in the model). */
    public double threshold() {
        return threshold;
    }

    /** The hash width of the model (2^bits buckets). */
    public int bits() {
        return bits;
    }

    private double margin(CharSequence text) {
        Accumulator sum = new Accumulator(weights);
        InjectionFeatures.extract(text, bits, sum);
        return sum.n == 0 ? bias : bias + scale * sum.total / Math.sqrt(sum.n);
    }

    static double sigmoid(double z) {
        return 1 / (1 + StrictMath.exp(-z));  // the same bits on every machine and JIT tier
    }

    /** One per call: sums stored weights as integers, so the score does not depend on summation order. */
    private static final class Accumulator implements InjectionFeatures.Sink {
        private final short[] weights;
        long total;
        int n;

        Accumulator(short[] weights) {
            this.weights = weights;
        }

        @Override
        public void feature(int bucket) {
            total += weights[bucket];
            n++;
        }
    }
}
