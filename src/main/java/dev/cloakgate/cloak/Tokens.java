package dev.cloakgate.cloak;

import java.text.Normalizer;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * The token grammar, {@code [CATEGORY_n]} and {@code [CATEGORY_REDACTED]}, and the escaping of token shapes that
 * upstreams write, on every surface (results, declarations, instructions, requests to the client).
 *
 * <p>An upstream's token shape is escaped by inserting {@link #MARK} (an ASCII {@code ~}) right after its opening
 * bracket: {@code [EMAIL_0]} reaches the agent as {@code [~EMAIL_0]}. Shapes are recognised in a normalised view
 * of the text (NFKD per character, format characters and combining marks removed, Unicode digits as ASCII,
 * upper case, Cyrillic and Greek look-alikes of Latin capitals as Latin), so {@code ［EMAIL_0］},
 * {@code [EMAIL\u200B_0]}, {@code [ＥＭＡＩＬ_０]} and {@code [email_0]} are escaped too. The mark is ASCII and
 * visible: no Unicode normalisation, case folding, format-character removal or ASCII folding a model or client
 * applies turns an escaped shape back into a token (the fullwidth brackets used before became {@code [} again
 * under NFKC).
 *
 * <p>The escape is exactly reversible, so an upstream gets back the bytes it wrote (its own default or enum
 * value): a shape that already holds marks gets one more, and {@link #unescape} removes the one mark that follows
 * the bracket. Unescaping runs toward the upstream after tokens are restored, never before, so text an upstream
 * wrote never resolves to a value. Text the client writes itself in the escaped form ({@code [~EMAIL_0]}) is
 * unescaped too: the only case where the upstream receives other bytes than the client sent, and never a value.
 */
public final class Tokens {
    /** Any token-shaped text with ASCII brackets, whichever category name it uses: what the restorer resolves. */
    static final Pattern SHAPE = Pattern.compile("\\[([A-Z][A-Z0-9_]{0,40}?)_(\\d{1,9}|REDACTED)]");
    /** The body of a shape in the normalised view (between the brackets, after the marks). */
    private static final Pattern BODY = Pattern.compile("[A-Z][A-Z0-9_]{0,40}?_(?:[0-9]{1,9}|REDACTED)");
    /** The longest body {@link #BODY} accepts: a shape longer than this is not one. */
    private static final int MAX_BODY = 41 + 1 + 9;
    public static final char MARK = '~';

    private Tokens() {
    }

    public static String token(Category c, int n) {
        return "[" + c.name() + "_" + n + "]";
    }

    public static String redacted(Category c) {
        return "[" + c.name() + "_REDACTED]";
    }

    /** True when the string holds at least one token-shaped substring with ASCII brackets. */
    public static boolean mayHoldToken(String s) {
        return s.indexOf('[') >= 0 && s.indexOf(']') >= 0;
    }

    /**
     * The string with every token shape of its normalised view escaped; the same string when there is none.
     * {@code shapes} receives each shape's canonical text ({@code [EMAIL_0]}), for the session's record of what
     * upstreams wrote.
     */
    public static String escape(String s, Consumer<String> shapes) {
        if (!hasOpening(s)) {
            return s;
        }
        return atShapes(s, shape -> {
            shapes.accept("[" + shape.body + "]");
            return 1;
        });
    }

    /** Undoes {@link #escape}: removes the mark that follows the opening bracket of each escaped shape. */
    public static String unescape(String s) {
        if (s.indexOf(MARK) < 0 || !hasOpening(s)) {
            return s;
        }
        return atShapes(s, shape -> shape.marks > 0 && s.charAt(shape.afterOpening) == MARK ? -1 : 0);
    }

    /**
     * Rewrites {@code s} right after the opening bracket of each shape: {@code edit} answers 1 to insert a mark
     * there, -1 to remove the mark there, 0 to leave the shape as it is. The same string when nothing changed.
     */
    private static String atShapes(String s, ToIntFunction<Shape> edit) {
        StringBuilder out = null;
        int at = 0;
        for (int i = 0; i < s.length(); i++) {
            Shape shape = shapeAt(s, i);
            if (shape == null) {
                continue;
            }
            int e = edit.applyAsInt(shape);
            if (e != 0) {
                if (out == null) {
                    out = new StringBuilder(s.length() + 8);
                }
                out.append(s, at, shape.afterOpening);
                if (e > 0) {
                    out.append(MARK);
                }
                at = e > 0 ? shape.afterOpening : shape.afterOpening + 1;
            }
            i = shape.end - 1;
        }
        return out == null ? s : out.append(s, at, s.length()).toString();
    }

    /** A shape in the raw text: where its opening bracket ends, where it ends, its marks and canonical body. */
    private record Shape(int afterOpening, int end, int marks, String body) {
    }

    private static boolean hasOpening(String s) {
        return s.indexOf('[') >= 0 || s.indexOf('\uFF3B') >= 0 || s.indexOf('\uFE47') >= 0;
    }

    /** Brackets as the normalised view reads them (their NFKC forms: ASCII, fullwidth, vertical presentation). */
    private static boolean opening(int cp) {
        return cp == '[' || cp == 0xFF3B || cp == 0xFE47;
    }

    private static boolean closing(int cp) {
        return cp == ']' || cp == 0xFF3D || cp == 0xFE48;
    }

    /**
     * The shape that starts at {@code i}, or null. The scan stops at the first character that cannot be part of
     * a shape (or at the next opening bracket), so each character is read for at most one opening bracket and
     * the whole pass stays linear, however many ignorable characters an upstream interleaves.
     */
    private static Shape shapeAt(String s, int i) {
        int cp = s.codePointAt(i);
        if (!opening(cp)) {
            return null;
        }
        int afterOpening = i + Character.charCount(cp);
        int marks = 0;
        StringBuilder body = new StringBuilder(16);
        int j = afterOpening;
        while (j < s.length()) {
            int c = s.codePointAt(j);
            j += Character.charCount(c);
            if (closing(c)) {
                return BODY.matcher(body).matches() ? new Shape(afterOpening, j, marks, body.toString()) : null;
            }
            if (opening(c)) {
                return null;
            }
            CharSequence v = c < 0x80 ? String.valueOf((char) Character.toUpperCase(c)) : view(c);
            for (int k = 0; k < v.length(); k++) {
                char x = v.charAt(k);
                if (x == MARK && body.isEmpty()) {
                    marks++;
                } else if ((x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9') || x == '_') {
                    if (body.length() == MAX_BODY) {
                        return null;
                    }
                    body.append(x);
                } else {
                    return null;
                }
            }
        }
        return null;
    }

    /** One code point as the normalised view reads it: empty for what a normaliser removes. */
    static String view(int cp) {
        if (ignorable(cp)) {
            return "";
        }
        String d = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKD);
        StringBuilder out = new StringBuilder(d.length());
        for (int k = 0; k < d.length(); k++) {
            int c = d.codePointAt(k);
            if (Character.isSupplementaryCodePoint(c)) {
                k++;
            }
            if (ignorable(c)) {
                continue;
            }
            if (Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
                out.append((char) ('0' + Character.digit(c, 10)));
                continue;
            }
            int u = Character.toUpperCase(c);
            out.appendCodePoint(latinLookalike(u));
        }
        return out.toString();
    }

    /** Characters a normaliser removes: format (zero-width, bidi controls), combining marks, fillers. */
    private static boolean ignorable(int cp) {
        int t = Character.getType(cp);
        return t == Character.FORMAT || t == Character.NON_SPACING_MARK || t == Character.ENCLOSING_MARK
                || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 || cp == 0x180B || cp == 0x180C
                || cp == 0x180D || cp == 0x180E;
    }

    private static final String CYRILLIC_GREEK = "\u0410A\u0412B\u0415E\u041AK\u041CM\u041DH\u041EO\u0420P\u0421C"
            + "\u0422T\u0423Y\u0425X\u0405S\u0406I\u0408J\u051AQ\u051CW\u0391A\u0392B\u0395E\u0396Z\u0397H\u0399I"
            + "\u039AK\u039CM\u039DN\u039FO\u03A1P\u03A4T\u03A5Y\u03A7X";

    /** Capitals of Cyrillic and Greek that look like Latin ones, as Latin: a model retyping them may do the same. */
    private static int latinLookalike(int cp) {
        if (cp < 0x370 || cp > 0x52F) {
            return cp;
        }
        for (int k = 0; k < CYRILLIC_GREEK.length(); k += 2) {
            if (CYRILLIC_GREEK.charAt(k) == cp) {
                return CYRILLIC_GREEK.charAt(k + 1);
            }
        }
        return cp;
    }
}
