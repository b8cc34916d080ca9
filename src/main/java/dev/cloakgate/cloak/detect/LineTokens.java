package dev.cloakgate.cloak.detect;

import java.text.Normalizer;
import java.util.Arrays;

import opennlp.tools.util.StringUtil;

/**
 * One line's tokens, exactly as OpenNLP's {@code SimpleTokenizer} cuts the whole line (the model was trained on
 * its tokens), with '_' read as a space (file names and identifiers join names with underscores: Rossi_Marco.pdf).
 * The tokenizer's rule is read straight off the text here, a token at a time, instead of calling it on copies of
 * the line: runs of alphabetic characters ({@link Character#isAlphabetic}, as the tokenizer has it), runs of digits, and runs of one repeated other character, split at whitespace and
 * wherever the class changes. No copy of the line, no span objects, and a word's string is made only when it is
 * asked for, so a multi-megabyte line costs linear time and a sliding buffer of the tokens a window needs.
 *
 * <p>One departure, on purpose: combining marks written after a letter (Guðmundsdóttir typed on a Mac is NFD)
 * stay in the letter's token with the letters after them, and that word is read composed (NFC), as the model
 * was trained; the tokenizer alone would cut the word in three.
 */
final class LineTokens {
    /** A span of the text: a token, or a line. */
    interface Visitor {
        void token(int start, int end);
    }

    private static final int WHITESPACE = 0;
    private static final int LETTER = 1;
    private static final int DIGIT = 2;
    private static final int OTHER = 3;

    private final String s;
    private int to;
    /** The next character not yet read into a token. */
    private int next;
    /** The line index of the first token in the buffer. */
    private int base;
    private int size;
    /** Tokens below this index will not be asked for again. */
    private int floor;
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private String[] words = new String[64];
    private boolean[] composed = new boolean[64];

    LineTokens(String s, int from, int to) {
        this.s = s;
        reset(from, to);
    }

    /** Reads another line of the same text from here on, keeping the buffers. */
    void reset(int from, int to) {
        this.to = to;
        this.next = from;
        this.base = 0;
        this.size = 0;
        this.floor = 0;
    }

    /** Whether token {@code k} of the line exists, reading further as needed. */
    boolean has(int k) {
        while (k >= base + size && read()) {
            // one token per read
        }
        return k < base + size;
    }

    /** The number of tokens of the line, all of them read. */
    int total() {
        while (read()) {
            // to the end of the line
        }
        return base + size;
    }

    /** The smallest of {@code k} and the line's token count. */
    int clamp(int k) {
        return k <= 0 || has(k - 1) ? k : total();
    }

    int start(int k) {
        return starts[k - base];
    }

    int end(int k) {
        return ends[k - base];
    }

    /** The text the line is part of. */
    String text() {
        return s;
    }

    /** Whether token {@code k} has combining marks joined to it (its {@link #word} is composed). */
    boolean composed(int k) {
        return composed[k - base];
    }

    /** Token {@code k}'s text (composed when combining marks were joined to it). */
    String word(int k) {
        int i = k - base;
        String w = words[i];
        if (w == null) {
            w = s.substring(starts[i], ends[i]);
            if (composed[i]) {
                w = Normalizer.normalize(w, Normalizer.Form.NFC);
            }
            words[i] = w;
        }
        return w;
    }

    /** The tokens before {@code k} will not be asked for again: their place in the buffer may be reused. */
    void dropBefore(int k) {
        floor = Math.max(floor, k);
    }

    /** Reads the next token into the buffer; false at the end of the line. */
    private boolean read() {
        int i = next;
        char c = 0;
        int kind = WHITESPACE;
        while (i < to && (kind = kind(c = s.charAt(i))) == WHITESPACE) {
            i++;
        }
        if (i >= to) {
            next = to;
            return false;
        }
        int start = i;
        i++;
        if (kind == OTHER) {
            while (i < to && s.charAt(i) == c) {
                i++;
            }
        } else {
            while (i < to && kind(s.charAt(i)) == kind) {
                i++;
            }
        }
        // marks right after a token belong to it, and so do the letters right after the marks (a line that
        // starts with marks: their first run is a token, and later marks and letters join it)
        boolean marks = false;
        while (i < to && diacritic(s.charAt(i))) {
            marks = true;
            i++;
            while (i < to && kind(s.charAt(i)) == LETTER) {
                i++;
            }
        }
        next = i;
        add(start, i, marks);
        return true;
    }

    private void add(int start, int end, boolean marks) {
        if (size == starts.length) {
            int drop = Math.min(size, floor - base);
            if (drop >= size / 2) {
                // the window has moved on: reuse the buffer instead of growing it
                System.arraycopy(starts, drop, starts, 0, size - drop);
                System.arraycopy(ends, drop, ends, 0, size - drop);
                System.arraycopy(words, drop, words, 0, size - drop);
                System.arraycopy(composed, drop, composed, 0, size - drop);
                Arrays.fill(words, size - drop, size, null);
                base += drop;
                size -= drop;
            } else {
                starts = Arrays.copyOf(starts, size * 2);
                ends = Arrays.copyOf(ends, size * 2);
                words = Arrays.copyOf(words, size * 2);
                composed = Arrays.copyOf(composed, size * 2);
            }
        }
        starts[size] = start;
        ends[size] = end;
        words[size] = null;
        composed[size] = marks;
        size++;
    }

    /** The tokenizer's character classes (OpenNLP 2.5's: alphabetic, not letter); '_' is a space here. */
    private static int kind(char c) {
        return c < LATIN1_KIND.length ? LATIN1_KIND[c] : slowKind(c);
    }

    private static final byte[] LATIN1_KIND = new byte[256];

    static {
        for (char c = 0; c < LATIN1_KIND.length; c++) {
            LATIN1_KIND[c] = (byte) slowKind(c);
        }
    }

    private static int slowKind(char c) {
        if (c == '_' || StringUtil.isWhitespace(c)) {
            return WHITESPACE;
        }
        if (Character.isAlphabetic(c)) {
            return LETTER;
        }
        return Character.isDigit(c) ? DIGIT : OTHER;
    }

    /** Combining diacritical marks: those of decomposed Latin, Greek and Cyrillic letters. */
    static boolean diacritic(char c) {
        return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF)
                || (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
    }
}
