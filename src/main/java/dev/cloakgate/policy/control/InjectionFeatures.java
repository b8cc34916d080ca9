package dev.cloakgate.policy.control;

import java.text.Normalizer;

/**
 * The features of {@link InjectionClassifier}: what the model sees of a text, shared by the runtime and
 * the trainer ({@code dev.cloakgate.tools.TrainInjectionModel}) so both hash exactly the same way.
 *
 * <h2>Normalisation</h2>
 * The text is NFKC-normalised (full-width and styled letters become plain ones, as a model reads them),
 * then read code point by code point: format characters (Unicode category Cf: zero-width spaces and
 * joiners, bidi controls, tag characters, soft hyphens) and variation selectors are dropped, letters are
 * lower-cased with {@link Character#toLowerCase(int)} (locale-independent, as {@code Locale.ROOT}), and every
 * decimal digit becomes {@code 0}, so "$3,000" and "$7,500" are the same feature.
 *
 * <h2>Tokens and features</h2>
 * A word is a run of letters, digits and combining marks; CJK ideographs and kana are not words but
 * single characters (Chinese and Japanese have no spaces); any other non-space character is a one-character
 * token ("$", "!", ":", "@"). Emitted, each into namespace-separated hashes:
 * <ol>
 *   <li>every word and punctuation token (unigram), and every pair of adjacent tokens (bigram);</li>
 *   <li>character 3-, 4- and 5-grams of each word padded with boundary marks ({@code <word>}), so
 *       "transfer" shares features with "transférer", "transferir" and "transferencia";</li>
 *   <li>every CJK character, and every pair of adjacent CJK characters.</li>
 * </ol>
 *
 * <h2>Hash (fixed; changing it is a new {@link #VERSION})</h2>
 * A token hash is 32-bit FNV-1a over its code points ({@code h = (h ^ cp) * 0x01000193}), started from
 * {@code 0x811C9DC5 ^ namespace * 0x9E3779B9}; a character n-gram is the same over its code points from the
 * last to the first, xor n; a bigram is {@code fmix(a * 0x9E3779B1 + b)} of its two token hashes; the bucket
 * is the top {@code bits} bits of MurmurHash3's {@code fmix32} of the hash. Pure-ASCII text skips
 * normalisation (NFKC leaves it unchanged). Nothing is allocated per n-gram: word n-grams are hashed from a
 * five-code-point ring.
 */
public final class InjectionFeatures {

    /** Version of the normalisation, tokenisation and hash above; a model records the one it was trained with. */
    public static final int VERSION = 1;

    /** Receives the bucket of each feature, in text order; a feature that occurs twice is delivered twice. */
    @FunctionalInterface
    public interface Sink {
        void feature(int bucket);
    }

    private static final int NS_WORD = 1;
    private static final int NS_BIGRAM = 2;
    private static final int NS_CHARGRAM = 3;
    private static final int NS_CJK = 4;
    private static final int NS_CJK_BIGRAM = 5;
    private static final int NS_PUNCT = 6;
    private static final int FNV_PRIME = 0x01000193;
    private static final int BOUNDARY = 0x2;

    private InjectionFeatures() {
    }

    /** Emits every feature of {@code text} into {@code sink} as a bucket in [0, 2^bits). Linear in the length. */
    public static void extract(CharSequence text, int bits, Sink sink) {
        if (bits < 8 || bits > 24) {
            throw new IllegalArgumentException("bits must be in [8, 24]");
        }
        String s = ascii(text) ? text.toString() : Normalizer.normalize(text, Normalizer.Form.NFKC);
        int shift = 32 - bits;
        int[] ring = new int[5];  // the last five code points of the current padded word
        int ringLen = 0;          // code points of the padded word seen so far
        int word = 0;             // running FNV hash of the current word, 0 when outside a word
        boolean inWord = false;
        int prevToken = 0;        // hash of the previous token, 0 at the start
        int prevCjk = -1;         // previous code point when it was CJK and adjacent
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            boolean letter;
            if (cp < 0x80) {  // the common case, without Character's tables
                if (cp >= 'A' && cp <= 'Z') {
                    cp += 'a' - 'A';
                } else if (cp >= '0' && cp <= '9') {
                    cp = '0';
                }
                letter = (cp >= 'a' && cp <= 'z') || cp == '0';
            } else {
                if (invisible(cp)) {
                    continue;
                }
                cp = fold(cp);
                letter = !cjk(cp) && wordChar(cp);
            }
            if (!letter && cp >= 0x3040 && cjk(cp)) {
                if (inWord) {
                    prevToken = endWord(word, ring, ringLen, prevToken, shift, sink);
                    inWord = false;
                }
                int h = step(seed(NS_CJK), cp);
                sink.feature(bucket(h, shift));
                if (prevCjk >= 0) {
                    sink.feature(bucket(step(step(seed(NS_CJK_BIGRAM), prevCjk), cp), shift));
                }
                prevCjk = cp;
                prevToken = h;
                continue;
            }
            prevCjk = -1;
            if (letter) {
                if (!inWord) {
                    inWord = true;
                    word = seed(NS_WORD);
                    ringLen = 0;
                    ringLen = push(ring, ringLen, BOUNDARY, shift, sink);
                }
                word = step(word, cp);
                ringLen = push(ring, ringLen, cp, shift, sink);
                continue;
            }
            if (inWord) {
                prevToken = endWord(word, ring, ringLen, prevToken, shift, sink);
                inWord = false;
            }
            if (!Character.isWhitespace(cp) && !Character.isSpaceChar(cp)) {
                int h = step(seed(NS_PUNCT), cp);
                sink.feature(bucket(h, shift));
                if (prevToken != 0) {
                    sink.feature(bucket(bigram(prevToken, h), shift));
                }
                prevToken = h;
            }
        }
        if (inWord) {
            endWord(word, ring, ringLen, prevToken, shift, sink);
        }
    }

    /** Closes a word: its trailing boundary n-grams, its unigram and its bigram with the previous token. */
    private static int endWord(int word, int[] ring, int ringLen, int prevToken, int shift, Sink sink) {
        push(ring, ringLen, BOUNDARY, shift, sink);
        sink.feature(bucket(word, shift));
        if (prevToken != 0) {
            sink.feature(bucket(bigram(prevToken, word), shift));
        }
        return word;
    }

    /**
     * Appends a code point to the padded word and emits the 3-, 4- and 5-grams that end at it, hashed from the
     * newest code point back, so the three share one pass of five steps.
     */
    private static int push(int[] ring, int len, int cp, int shift, Sink sink) {
        ring[len % 5] = cp;
        len++;
        if (len >= 3) {
            int k = len - 1;
            int h = step(step(step(seed(NS_CHARGRAM), ring[k % 5]), ring[(k + 4) % 5]), ring[(k + 3) % 5]);
            sink.feature(bucket(h ^ 3, shift));
            if (len >= 4) {
                h = step(h, ring[(k + 2) % 5]);
                sink.feature(bucket(h ^ 4, shift));
                if (len >= 5) {
                    sink.feature(bucket(step(h, ring[(k + 1) % 5]) ^ 5, shift));
                }
            }
        }
        // keep the counter small on very long "words" (base64, a 1 MB run) without losing the ring's phase
        return len >= 1_000_000_000 ? 5 + len % 5 : len;
    }

    private static int seed(int namespace) {
        return 0x811C9DC5 ^ namespace * 0x9E3779B9;
    }

    private static int step(int h, int cp) {
        return (h ^ cp) * FNV_PRIME;
    }

    private static int bigram(int a, int b) {
        return fmix(a * 0x9E3779B1 + b);
    }

    private static int bucket(int h, int shift) {
        return fmix(h) >>> shift;
    }

    private static int fmix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }

    private static boolean ascii(CharSequence text) {
        for (int i = 0, n = text.length(); i < n; i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean invisible(int cp) {
        return Character.getType(cp) == Character.FORMAT
                || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF);
    }

    private static int fold(int cp) {
        if (Character.isDigit(cp)) {
            return '0';
        }
        return Character.toLowerCase(cp);
    }

    private static boolean wordChar(int cp) {
        if (Character.isLetterOrDigit(cp)) {
            return true;
        }
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK;
    }

    /** Han ideographs (and extensions), hiragana and katakana: scripts written without spaces. */
    private static boolean cjk(int cp) {
        return (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF)
                || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x3134F);
    }
}
