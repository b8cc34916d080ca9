package dev.cloakgate.cloak;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The token grammar, {@code [CATEGORY_n]} and {@code [CATEGORY_REDACTED]}, and the escaping of token-shaped
 * text that arrives from upstreams: brackets become fullwidth (U+FF3B, U+FF3D), so text a hostile server
 * wrote can never resolve to a value the gateway holds. Escaping keeps string lengths, so offsets found after
 * it still point at the same characters.
 */
public final class Tokens {
    /** Any token-shaped text, whichever category name it uses. */
    static final Pattern SHAPE = Pattern.compile("\\[([A-Z][A-Z0-9_]{0,40}?)_(\\d{1,9}|REDACTED)]");
    public static final char OPEN_ESCAPED = '\uFF3B';
    public static final char CLOSE_ESCAPED = '\uFF3D';

    private Tokens() {
    }

    public static String token(Category c, int n) {
        return "[" + c.name() + "_" + n + "]";
    }

    public static String redacted(Category c) {
        return "[" + c.name() + "_REDACTED]";
    }

    /** Rewrites token-shaped text to its fullwidth form; the same string when there is none. */
    public static String escape(String s) {
        if (s.indexOf('[') < 0) {
            return s;
        }
        Matcher m = SHAPE.matcher(s);
        if (!m.find()) {
            return s;
        }
        char[] c = s.toCharArray();
        do {
            c[m.start()] = OPEN_ESCAPED;
            c[m.end() - 1] = CLOSE_ESCAPED;
        } while (m.find());
        return new String(c);
    }

    /** True when the string holds at least one token-shaped substring with ASCII brackets. */
    public static boolean mayHoldToken(String s) {
        return s.indexOf('[') >= 0 && s.indexOf(']') >= 0;
    }
}
