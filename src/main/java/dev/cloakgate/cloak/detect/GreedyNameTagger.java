package dev.cloakgate.cloak.detect;

import java.util.Map;
import java.util.Optional;

import opennlp.tools.dictionary.Dictionary;
import opennlp.tools.ml.model.AbstractModel;
import opennlp.tools.ml.model.Context;
import opennlp.tools.namefind.BioCodec;
import opennlp.tools.namefind.TokenNameFinderModel;
import opennlp.tools.util.Span;
import opennlp.tools.util.StringList;
import opennlp.tools.util.StringUtil;
import opennlp.tools.util.featuregen.FeatureGeneratorUtil;

/**
 * The decoding {@code NameFinderME} does with a beam of one, for exactly the feature descriptor the bundled
 * PERSON model is trained with ({@link #FEATURES}), computed once per token instead of once per feature window
 * position. OpenNLP's generic path builds every feature string three times (the window generators ask each
 * neighbour again), classifies tokens with a regex, and decodes through a priority queue; on gateway traffic that
 * was nine tenths of the cloak's time. The features, their order (floating-point sums are order-sensitive) and
 * the decision rule are OpenNLP's; {@code GreedyNameTaggerTest} checks the spans are identical on the labelled
 * evaluation set. Any other model (an operator's, or one with another descriptor, codec or beam) is refused by
 * {@link #forModel} and runs through OpenNLP's own decoder.
 *
 * <p>Thread-safe: the model data is read-only; the per-token cache lives in a {@link Scratch} per thread.
 */
public final class GreedyNameTagger {

    /** The feature descriptor the bundled model is trained with (TrainPersonModel uses this text). */
    public static final String FEATURES = """
            <featureGenerators cache="true" name="nameFinder">
              <generator class="opennlp.tools.util.featuregen.WindowFeatureGeneratorFactory">
                <int name="prevLength">1</int>
                <int name="nextLength">1</int>
                <generator class="opennlp.tools.util.featuregen.TokenClassFeatureGeneratorFactory"/>
              </generator>
              <generator class="opennlp.tools.util.featuregen.WindowFeatureGeneratorFactory">
                <int name="prevLength">1</int>
                <int name="nextLength">1</int>
                <generator class="opennlp.tools.util.featuregen.TokenFeatureGeneratorFactory">
                  <bool name="lowercase">true</bool>
                </generator>
              </generator>
              <generator class="opennlp.tools.util.featuregen.SentenceFeatureGeneratorFactory">
                <bool name="begin">true</bool>
                <bool name="end">false</bool>
              </generator>
              <generator class="opennlp.tools.util.featuregen.SuffixFeatureGeneratorFactory">
                <int name="length">3</int>
              </generator>
              <generator class="opennlp.tools.util.featuregen.PrefixFeatureGeneratorFactory">
                <int name="length">2</int>
              </generator>
              <generator class="opennlp.tools.util.featuregen.DictionaryFeatureGeneratorFactory">
                <str name="dict">person-names.dictionary</str>
              </generator>
            </featureGenerators>
            """;
    static final String DICTIONARY = "person-names.dictionary";
    private static final int SUFFIX = 3;
    private static final int PREFIX = 2;
    /** Distinct tokens remembered per thread before the cache starts over (a few MB at most). */
    private static final int CACHE_LIMIT = 50_000;

    private final Map<String, Context> pmap;
    private final int outcomes;
    private final String[] outcomeNames;
    private final boolean[] starts;
    private final boolean[] conts;
    private final int other;
    private final Dictionary dictionary;
    private final Context dic;
    private final Context sentenceBegin;
    private final Context[] po;
    private final Context[] ppo;

    private GreedyNameTagger(Map<String, Context> pmap, String[] outcomeNames, Dictionary dictionary) {
        this.pmap = pmap;
        this.outcomeNames = outcomeNames;
        this.outcomes = outcomeNames.length;
        this.dictionary = dictionary;
        this.starts = new boolean[outcomes];
        this.conts = new boolean[outcomes];
        int o = -1;
        po = new Context[outcomes];
        ppo = new Context[outcomes];
        for (int i = 0; i < outcomes; i++) {
            starts[i] = outcomeNames[i].endsWith(BioCodec.START);
            conts[i] = outcomeNames[i].endsWith(BioCodec.CONTINUE);
            if (outcomeNames[i].equals(BioCodec.OTHER)) {
                o = i;
            }
            po[i] = pmap.get("po=" + outcomeNames[i]);
            ppo[i] = pmap.get("ppo=" + outcomeNames[i]);
        }
        this.other = o;
        this.dic = pmap.get(":w=dic");
        this.sentenceBegin = pmap.get("S=begin");
    }

    /**
     * The fast tagger for {@code model}, or empty when the model is not one it reproduces exactly: another
     * feature descriptor, a codec other than BIO, a beam wider than one, multi-token dictionary entries, or
     * outcomes of more than one name type.
     */
    public static Optional<GreedyNameTagger> forModel(TokenNameFinderModel model) {
        Object descriptor = model.getArtifact("generator.featuregen");
        Object maxent = model.getArtifact("nameFinder.model");
        Object dict = model.getArtifact(DICTIONARY);
        String beam = model.getManifestProperty("BeamSize");
        if (!(descriptor instanceof byte[] bytes) || !(maxent instanceof AbstractModel am)
                || !(dict instanceof Dictionary d) || !(model.getSequenceCodec() instanceof BioCodec)
                || !"1".equals(beam) || d.getMaxTokenCount() != 1
                || !squeeze(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).equals(squeeze(FEATURES))) {
            return Optional.empty();
        }
        Object[] data = am.getDataStructures();
        @SuppressWarnings("unchecked")
        Map<String, Context> pmap = (Map<String, Context>) data[1];
        String[] names = (String[]) data[2];
        int others = 0;
        java.util.Set<String> types = new java.util.HashSet<>();
        for (String n : names) {
            if (n.equals(BioCodec.OTHER)) {
                others++;
            } else if (n.endsWith("-" + BioCodec.START) || n.endsWith("-" + BioCodec.CONTINUE)) {
                types.add(n.substring(0, n.lastIndexOf('-')));
            } else {
                return Optional.empty();
            }
        }
        if (others != 1 || types.size() != 1) {
            return Optional.empty();
        }
        return Optional.of(new GreedyNameTagger(pmap, names, d));
    }

    private static String squeeze(String s) {
        return s.replaceAll("\\s+", " ").replace("> <", "><").strip();
    }

    /** Per-thread state: the cache of per-token features. */
    public Scratch scratch() {
        return new Scratch();
    }

    public final class Scratch {
        // the per-token cache, open addressing keyed by the token's text: a window's tokens are looked up where
        // they are in the text, and only a token seen for the first time is copied out of it
        private String[] keys = new String[1024];
        private int[] hashes = new int[1024];
        private TokenFeatures[] values = new TokenFeatures[1024];
        private int size;

        TokenFeatures features(String token) {
            return features(token, 0, token.length());
        }

        /** The features of the token {@code s[from, to)}. */
        TokenFeatures features(String s, int from, int to) {
            int h = 0;
            for (int i = from; i < to; i++) {
                h = 31 * h + s.charAt(i);
            }
            int length = to - from;
            int at = slot(h);
            for (String k; (k = keys[at]) != null; at = (at + 1) & (keys.length - 1)) {
                if (hashes[at] == h && k.length() == length && s.regionMatches(from, k, 0, length)) {
                    return values[at];
                }
            }
            if (size >= CACHE_LIMIT) {
                java.util.Arrays.fill(keys, null);
                java.util.Arrays.fill(values, null);
                size = 0;
            } else if ((size + 1) * 2 > keys.length) {
                grow();
            }
            String token = from == 0 && to == s.length() ? s : s.substring(from, to);
            TokenFeatures f = new TokenFeatures(token);
            at = slot(h);
            while (keys[at] != null) {
                at = (at + 1) & (keys.length - 1);
            }
            keys[at] = token;
            hashes[at] = h;
            values[at] = f;
            size++;
            return f;
        }

        private int slot(int h) {
            int x = h * 0x9E3779B9;
            return (x ^ x >>> 16) & (keys.length - 1);
        }

        private void grow() {
            String[] oldKeys = keys;
            int[] oldHashes = hashes;
            TokenFeatures[] oldValues = values;
            keys = new String[oldKeys.length * 2];
            hashes = new int[oldKeys.length * 2];
            values = new TokenFeatures[oldKeys.length * 2];
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != null) {
                    int at = slot(oldHashes[i]);
                    while (keys[at] != null) {
                        at = (at + 1) & (keys.length - 1);
                    }
                    keys[at] = oldKeys[i];
                    hashes[at] = oldHashes[i];
                    values[at] = oldValues[i];
                }
            }
        }

        /** The names in {@code tokens}, as {@code NameFinderME.find} with a beam of one would return them. */
        public Span[] find(String[] tokens) {
            int n = tokens.length;
            TokenFeatures[] t = new TokenFeatures[n];
            for (int i = 0; i < n; i++) {
                t[i] = features(tokens[i]);
            }
            return decode(t);
        }

        /** As {@link #find(String[])} for tokens {@code [start, end)} of a line, read where they are in the text. */
        Span[] find(LineTokens lt, int start, int end) {
            TokenFeatures[] t = new TokenFeatures[end - start];
            for (int k = start; k < end; k++) {
                t[k - start] = lt.composed(k) ? features(lt.word(k)) : features(lt.text(), lt.start(k), lt.end(k));
            }
            return decode(t);
        }

        private Span[] decode(TokenFeatures[] t) {
            int n = t.length;
            int[] outcome = new int[n];
            double[] sums = new double[outcomes];
            for (int i = 0; i < n; i++) {
                java.util.Arrays.fill(sums, 0);
                TokenFeatures cur = t[i];
                add(sums, cur.wc);
                add(sums, cur.wac);
                if (i > 0) {
                    add(sums, t[i - 1].p1wc);
                    add(sums, t[i - 1].p1wac);
                }
                if (i + 1 < n) {
                    add(sums, t[i + 1].n1wc);
                    add(sums, t[i + 1].n1wac);
                }
                add(sums, cur.w);
                if (i > 0) {
                    add(sums, t[i - 1].p1w);
                }
                if (i + 1 < n) {
                    add(sums, t[i + 1].n1w);
                }
                if (i == 0) {
                    add(sums, sentenceBegin);
                }
                for (Context c : cur.suffixes) {
                    add(sums, c);
                }
                for (Context c : cur.prefixes) {
                    add(sums, c);
                }
                if (cur.inDictionary) {
                    add(sums, dic);
                    add(sums, cur.dicIs);
                }
                int prev = i > 0 ? outcome[i - 1] : other;
                int prevPrev = i > 1 ? outcome[i - 2] : other;
                add(sums, po[prev]);
                add(sums, cur.pow[prev]);
                add(sums, cur.powf[prev]);
                add(sums, ppo[prevPrev]);
                outcome[i] = best(sums, prev);
            }
            return spans(outcome);
        }
    }

    private static void add(double[] sums, Context c) {
        if (c != null) {
            int[] o = c.getOutcomes();
            double[] p = c.getParameters();
            for (int k = 0; k < o.length; k++) {
                sums[o[k]] += p[k];
            }
        }
    }

    /**
     * The highest-scoring outcome the BIO sequence allows (a continuation only after a start or a
     * continuation). The softmax OpenNLP applies first is monotonic and its prior uniform, so the raw sums rank
     * the same way.
     */
    private int best(double[] sums, int prev) {
        int best = -1;
        for (int k = 0; k < outcomes; k++) {
            if (conts[k] && (prev == other)) {
                continue;
            }
            if (best < 0 || sums[k] > sums[best]) {
                best = k;
            }
        }
        return best;
    }

    private Span[] spans(int[] outcome) {
        int count = 0;
        for (int o : outcome) {
            count += starts[o] ? 1 : 0;
        }
        Span[] out = new Span[count];
        int found = 0;
        int start = -1;
        for (int i = 0; i < outcome.length; i++) {
            int o = outcome[i];
            if (starts[o]) {
                if (start >= 0) {
                    out[found++] = new Span(start, i);
                }
                start = i;
            } else if (!conts[o] && start >= 0) {
                out[found++] = new Span(start, i);
                start = -1;
            }
        }
        if (start >= 0) {
            out[found++] = new Span(start, outcome.length);
        }
        return out;
    }

    /** Everything one token contributes, to itself and to its neighbours' windows, resolved to model contexts. */
    private final class TokenFeatures {
        final Context wc;
        final Context wac;
        final Context p1wc;
        final Context p1wac;
        final Context n1wc;
        final Context n1wac;
        final Context w;
        final Context p1w;
        final Context n1w;
        final Context[] suffixes;
        final Context[] prefixes;
        final boolean inDictionary;
        final Context dicIs;
        final Context[] pow;
        final Context[] powf;

        TokenFeatures(String token) {
            // OpenNLP's own helpers, so classes and case folding match training; run once per distinct token
            String cls = FeatureGeneratorUtil.tokenFeature(token);
            String lower = StringUtil.toLowerCase(token);
            String wacText = "w&c=" + lower + "," + cls;
            wc = pmap.get("wc=" + cls);
            wac = pmap.get(wacText);
            p1wc = pmap.get("p1wc=" + cls);
            p1wac = pmap.get("p1" + wacText);
            n1wc = pmap.get("n1wc=" + cls);
            n1wac = pmap.get("n1" + wacText);
            w = pmap.get("w=" + lower);
            p1w = pmap.get("p1w=" + lower);
            n1w = pmap.get("n1w=" + lower);
            int s = Math.min(SUFFIX, token.length());
            suffixes = new Context[s];
            for (int li = 0; li < s; li++) {
                suffixes[li] = pmap.get("suf=" + token.substring(Math.max(token.length() - li - 1, 0)));
            }
            int p = Math.min(PREFIX, token.length());
            prefixes = new Context[p];
            for (int li = 0; li < p; li++) {
                prefixes[li] = pmap.get("pre=" + token.substring(0, Math.min(li + 1, token.length())));
            }
            inDictionary = dictionary.contains(new StringList(dictionary.isCaseSensitive(), token));
            dicIs = inDictionary ? pmap.get(":w=dic=" + token) : null;
            pow = new Context[outcomes];
            powf = new Context[outcomes];
            for (int k = 0; k < outcomes; k++) {
                pow[k] = pmap.get("pow=" + outcomeNames[k] + "," + token);
                powf[k] = pmap.get("powf=" + outcomeNames[k] + "," + cls);
            }
        }
    }
}
