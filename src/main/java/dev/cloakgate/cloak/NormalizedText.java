package dev.cloakgate.cloak;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.List;

/**
 * A string as a reader sees it, for detection: NFKC (fullwidth and other compatibility forms become their plain
 * letters, digits and signs: {@code ４}, {@code ＠}, {@code ﹫}), invisible characters removed (format characters
 * such as zero-width spaces and joiners, word joiner, soft hyphen, BOM and bidi controls, variation selectors,
 * Hangul fillers), every Unicode decimal digit mapped to its ASCII digit ({@code ٣} to {@code 3}), every space
 * separator (no-break, thin, ideographic...) to a space, line and paragraph separators to a line break, dashes and
 * minus signs to {@code -}; and two encodings a browser or a URL parser undoes for free decoded: percent-encoding
 * ({@code %2B1%20415}) and numeric HTML character references ({@code &#64;}, a few named ones).
 *
 * <p>Detectors run on {@link #text()}; a finding there is mapped back with {@link #toOriginal} to the span of the
 * original that produced it, invisible characters inside included, so replacing that span removes all of it.
 * Text that needs none of this (all of pure ASCII without {@code %XX} or {@code &#}) is its own view and costs one
 * scan; otherwise the view is built in one pass and only the places where lengths change are remembered (most
 * rewrites are one character for one), so the map stays small.
 */
public final class NormalizedText {
    private static final int[] NONE = new int[0];

    private final String original;
    private final String text;
    /**
     * Stride 4: view start, view end, original start, original end of each stretch whose length changed (a
     * removed invisible, an expansion, a decoded escape); in view order. Between them the view is one for one.
     */
    private final int[] anchors;
    private final int count;

    private NormalizedText(String original, String text, int[] anchors, int count) {
        this.original = original;
        this.text = text;
        this.anchors = anchors;
        this.count = count;
    }

    /** The view the deterministic detectors read: everything above. */
    public static NormalizedText of(String s) {
        return view(s, true);
    }

    /**
     * A lighter view for a statistical model, trained on text as people write it: only what renders as nothing
     * is removed and fullwidth Latin letters and digits read as ASCII ({@code Ｍａｒｉｅ}); punctuation, dashes,
     * spaces and escapes stay as written, since the model's features were learnt on them (normalising those cost
     * PERSON recall on the evaluation set).
     */
    public static NormalizedText asWritten(String s) {
        return view(s, false);
    }

    private static NormalizedText view(String s, boolean full) {
        int first = nextChange(s, 0, full);
        return first < 0 ? new NormalizedText(s, s, NONE, 0) : new Builder(s, full).build(first);
    }

    /** What detectors read. */
    public String text() {
        return text;
    }

    /** True when the view is the original itself. */
    public boolean identity() {
        return text == original;
    }

    /** The original index of the character at view index {@code v}. */
    public int start(int v) {
        int k = anchorAtOrBefore(v);
        if (k < 0) {
            return v;
        }
        int a = 4 * k;
        return v < anchors[a + 1] ? anchors[a + 2] : v + anchors[a + 3] - anchors[a + 1];
    }

    /** The original end of a view span ending (exclusive) at {@code v > 0}: the end of its last character's source. */
    public int end(int v) {
        int last = v - 1;
        int k = anchorAtOrBefore(last);
        if (k < 0) {
            return v;
        }
        int a = 4 * k;
        return last < anchors[a + 1] ? anchors[a + 3] : v + anchors[a + 3] - anchors[a + 1];
    }

    /** True when some characters were removed outright (invisibles), not only rewritten. */
    public boolean removedAny() {
        for (int k = 0; k < count; k++) {
            if (anchors[4 * k] == anchors[4 * k + 1]) {
                return true;
            }
        }
        return false;
    }

    /** True when invisible characters were removed right before view index {@code v} (between it and the one before). */
    public boolean invisibleBefore(int v) {
        int k = anchorAtOrBefore(v);
        // a removal sorts before a stretch starting at the same place: look at both
        for (int j = k; j >= 0 && anchors[4 * j] == v; j--) {
            if (anchors[4 * j + 1] == v) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rewrites, in place, the findings of {@code found} from index {@code from} on, in view coordinates, as spans
     * of the original. (Two findings that met inside one expanded character, a ligature, now overlap; the usual
     * overlap rule keeps one, which covers the character.)
     */
    public void toOriginal(List<Finding> found, int from) {
        if (count == 0) {
            return;
        }
        for (int i = from; i < found.size(); i++) {
            Finding f = found.get(i);
            found.set(i, new Finding(f.category(), start(f.start()), end(f.end())));
        }
    }

    /** The last anchor whose view start is at or before {@code v}, or -1. */
    private int anchorAtOrBefore(int v) {
        int lo = 0;
        int hi = count - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (anchors[4 * mid] <= v) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The index of the first character from {@code from} on that the view changes, or -1: no allocation. */
    private static int nextChange(String s, int from, boolean full) {
        int n = s.length();
        for (int i = from; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (full && ((c == '%' && Escapes.percent(s, i) > 0) || (c == '&' && Escapes.reference(s, i) > 0))) {
                    return i;
                }
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    if (Kinds.of(Character.toCodePoint(c, s.charAt(i + 1)), full) != Kinds.KEEP) {
                        return i;
                    }
                    i++;
                }
            } else if (Kinds.of(c, full) != Kinds.KEEP) {
                return i;
            }
        }
        return -1;
    }

    /** How each character is rewritten; the table is built on first use, by the first text that is not ASCII. */
    static final class Kinds {
        static final byte KEEP = 0;
        static final byte DROP = 1;
        static final byte SPACE = 2;
        static final byte NEWLINE = 3;
        static final byte DASH = 4;
        static final byte DIGIT = 5;
        static final byte NFKC = 6;
        static final byte[] TABLE = table();

        private Kinds() {
        }

        private static byte[] table() {
            byte[] t = new byte[0x10000];
            for (int c = 0x80; c < 0x10000; c++) {
                if (!Character.isSurrogate((char) c)) {
                    t[c] = kind(c);
                }
            }
            return t;
        }

        /** How a non-ASCII code point is rewritten in the full view, or in the lighter one ({@code full} false). */
        static byte of(int cp, boolean full) {
            byte k = cp < 0x10000 ? TABLE[cp] : supplementary(cp);
            if (full || k == DROP) {
                return k;
            }
            return (cp >= 0xFF10 && cp <= 0xFF19) || (cp >= 0xFF21 && cp <= 0xFF3A) || (cp >= 0xFF41 && cp <= 0xFF5A)
                    ? NFKC : KEEP;
        }

        private static byte supplementary(int cp) {
            if (cp >= 0x1F300 && cp <= 0x1FAFF) {
                return KEEP; // pictographs and emoji: nothing to normalise, and the commonest astral characters
            }
            return kind(cp);
        }

        private static byte kind(int cp) {
            int type = Character.getType(cp);
            if (type == Character.FORMAT || invisible(cp)) {
                return DROP;
            }
            if (type == Character.SPACE_SEPARATOR) {
                return SPACE;
            }
            if (cp == 0x2028 || cp == 0x2029 || cp == 0x85) {
                return NEWLINE;
            }
            if ((cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212 || cp == 0xFE58 || cp == 0xFE63 || cp == 0xFF0D) {
                return DASH;
            }
            if (type == Character.DECIMAL_DIGIT_NUMBER) {
                return DIGIT;
            }
            return Normalizer.isNormalized(new String(Character.toChars(cp)), Normalizer.Form.NFKC) ? KEEP : NFKC;
        }

        /** Default-ignorable characters that are not format characters: they render as nothing. */
        private static boolean invisible(int cp) {
            return cp == 0x034F || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF)
                    || (cp >= 0x180B && cp <= 0x180F) || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0
                    || cp == 0x17B4 || cp == 0x17B5;
        }
    }

    /** Percent-encoding and HTML character references: where one starts, how long it is, what it decodes to. */
    static final class Escapes {
        private static final String[][] NAMED = { { "&nbsp;", " " }, { "&commat;", "@" }, { "&period;", "." },
                { "&plus;", "+" }, { "&hyphen;", "-" }, { "&dash;", "-" }, { "&ndash;", "-" }, { "&mdash;", "-" },
                { "&lpar;", "(" }, { "&rpar;", ")" }, { "&lsqb;", "[" }, { "&rsqb;", "]" } };

        private Escapes() {
        }

        /**
         * The length of the percent-encoded character at {@code i} (one to four {@code %XX} bytes of valid UTF-8
         * naming a printable character), or 0.
         */
        static int percent(String s, int i) {
            int b0 = hexByte(s, i);
            if (b0 < 0) {
                return 0;
            }
            if (b0 < 0x80) {
                return b0 >= 0x20 && b0 < 0x7F ? 3 : 0;
            }
            int more = b0 >= 0xC2 && b0 <= 0xDF ? 1 : b0 >= 0xE0 && b0 <= 0xEF ? 2 : b0 >= 0xF0 && b0 <= 0xF4 ? 3 : -1;
            if (more < 0) {
                return 0;
            }
            int cp = b0 & (0x3F >> more);
            for (int k = 1; k <= more; k++) {
                int b = hexByte(s, i + 3 * k);
                if (b < 0x80 || b > 0xBF) {
                    return 0;
                }
                cp = (cp << 6) | (b & 0x3F);
            }
            int min = more == 1 ? 0x80 : more == 2 ? 0x800 : 0x10000;
            return cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) ? 3 * (more + 1) : 0;
        }

        /** The code point a valid percent-encoding of length {@code len} at {@code i} decodes to. */
        static int percentValue(String s, int i, int len) {
            int more = len / 3 - 1;
            int cp = hexByte(s, i) & (more == 0 ? 0x7F : 0x3F >> more);
            for (int k = 1; k <= more; k++) {
                cp = (cp << 6) | (hexByte(s, i + 3 * k) & 0x3F);
            }
            return cp;
        }

        private static int hexByte(String s, int i) {
            if (i + 2 >= s.length() || s.charAt(i) != '%') {
                return -1;
            }
            int h = Character.digit(s.charAt(i + 1), 16);
            int l = Character.digit(s.charAt(i + 2), 16);
            return h < 0 || l < 0 || s.charAt(i + 1) > 0x7F || s.charAt(i + 2) > 0x7F ? -1 : h * 16 + l;
        }

        /** The length of the character reference at {@code i} ({@code &#64;}, {@code &#x40;}, a few named), or 0. */
        static int reference(String s, int i) {
            int n = s.length();
            if (i + 3 < n && s.charAt(i + 1) == '#') {
                boolean hex = s.charAt(i + 2) == 'x' || s.charAt(i + 2) == 'X';
                int j = i + (hex ? 3 : 2);
                int from = j;
                long v = 0;
                while (j < n && j - from < 7 && Character.digit(s.charAt(j), hex ? 16 : 10) >= 0 && s.charAt(j) < 0x80) {
                    v = v * (hex ? 16 : 10) + Character.digit(s.charAt(j), hex ? 16 : 10);
                    j++;
                }
                boolean ok = j > from && j < n && s.charAt(j) == ';' && v >= 0x20 && v <= 0x10FFFF && v != 0x7F
                        && !(v >= 0xD800 && v <= 0xDFFF);
                return ok ? j + 1 - i : 0;
            }
            for (String[] e : NAMED) {
                if (s.startsWith(e[0], i)) {
                    return e[0].length();
                }
            }
            return 0;
        }

        static int referenceValue(String s, int i, int len) {
            if (s.charAt(i + 1) == '#') {
                boolean hex = s.charAt(i + 2) == 'x' || s.charAt(i + 2) == 'X';
                return Integer.parseInt(s.substring(i + (hex ? 3 : 2), i + len - 1), hex ? 16 : 10);
            }
            for (String[] e : NAMED) {
                if (s.startsWith(e[0], i)) {
                    return e[1].charAt(0);
                }
            }
            throw new IllegalStateException("not a reference");
        }
    }

    /** Builds the view and its anchors in one pass from the first character that changes. */
    private static final class Builder {
        private final String s;
        private final boolean full;
        private final StringBuilder out;
        private int[] anchors = new int[32];
        private int count;

        Builder(String s, boolean full) {
            this.s = s;
            this.full = full;
            this.out = new StringBuilder(s.length());
        }

        NormalizedText build(int first) {
            out.append(s, 0, first);
            int n = s.length();
            int i = first;
            while (i < n) {
                // i is at a character that changes: rewrite it, then copy what follows up to the next one in bulk
                char c = s.charAt(i);
                int len = !full ? 0 : c == '%' ? Escapes.percent(s, i) : c == '&' ? Escapes.reference(s, i) : 0;
                if (len > 0) {
                    emit(c == '%' ? Escapes.percentValue(s, i, len) : Escapes.referenceValue(s, i, len), i, i + len);
                    i += len;
                } else {
                    int cp = s.codePointAt(i);
                    int w = Character.charCount(cp);
                    emit(cp, i, i + w);
                    i += w;
                }
                int next = nextChange(s, i, full);
                int copyTo = next < 0 ? n : next;
                out.append(s, i, copyTo);
                i = copyTo;
            }
            return new NormalizedText(s, out.toString(), count == 0 ? NONE : Arrays.copyOf(anchors, 4 * count), count);
        }

        /** Appends what code point {@code cp}, written as original [os, oe), reads as; anchors a change of length. */
        private void emit(int cp, int os, int oe) {
            int vs = out.length();
            append(cp, true);
            int ve = out.length();
            if (ve - vs != oe - os) {
                anchor(vs, ve, os, oe);
            }
        }

        private void append(int cp, boolean nfkc) {
            if (cp < 0x80) {
                out.append((char) cp);
                return;
            }
            byte kind = Kinds.of(cp, full);
            switch (kind) {
                case Kinds.DROP -> {
                    // nothing: it renders as nothing
                }
                case Kinds.SPACE -> out.append(' ');
                case Kinds.NEWLINE -> out.append('\n');
                case Kinds.DASH -> out.append('-');
                case Kinds.DIGIT -> out.append((char) ('0' + Character.digit(cp, 10)));
                case Kinds.NFKC -> {
                    if (!nfkc) {
                        out.appendCodePoint(cp);
                        break;
                    }
                    String k = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKC);
                    for (int j = 0; j < k.length();) {
                        int x = k.codePointAt(j);
                        append(x, false); // NFKC is idempotent; its output may still hold a dash, a digit, a space
                        j += Character.charCount(x);
                    }
                }
                default -> out.appendCodePoint(cp);
            }
        }

        private void anchor(int vs, int ve, int os, int oe) {
            if (vs == ve && count > 0) {
                int last = 4 * (count - 1);
                if (anchors[last] == vs && anchors[last + 1] == vs && anchors[last + 3] == os) {
                    anchors[last + 3] = oe; // one more invisible in a row
                    return;
                }
            }
            if (4 * count == anchors.length) {
                anchors = Arrays.copyOf(anchors, anchors.length * 2);
            }
            int a = 4 * count++;
            anchors[a] = vs;
            anchors[a + 1] = ve;
            anchors[a + 2] = os;
            anchors[a + 3] = oe;
        }
    }
}
