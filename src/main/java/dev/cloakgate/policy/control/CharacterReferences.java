package dev.cloakgate.policy.control;

import java.util.Map;

/**
 * HTML character references as a browser decodes them in an attribute value (and as markdown renderers decode them
 * in a link destination): {@code &#58;}, {@code &#x3a;} and {@code &colon;} are all ':'. Numeric references are
 * decoded with or without their semicolon, as the HTML parser does; named ones need it, except the legacy names
 * the spec lets go without (amp, lt, gt, quot, nbsp, shy), which then stay literal before '=' or an alphanumeric
 * (the attribute-value rule that keeps {@code ?a=1&copy=2} a query).
 *
 * <p>The named table holds every name that decodes to ASCII, which is what can change where a URL's scheme,
 * authority or host begins and ends. A name not in it stays as written: inside a host that leaves an '&' the host
 * parser refuses, so an unknown reference makes a host unparseable (refused), never allowed. One pass, linear.
 */
final class CharacterReferences {
    private CharacterReferences() {
    }

    /** Longest name in the table, and more than any name in HTML's. */
    private static final int MAX_NAME = 32;
    /** Beyond the last code point; also stops an overflowing run of digits. */
    private static final int TOO_LARGE = 0x110000;

    private static final Map<String, String> NAMED = Map.ofEntries(Map.entry("Tab", "\t"), Map.entry("NewLine", "\n"),
            Map.entry("excl", "!"), Map.entry("quot", "\""), Map.entry("QUOT", "\""), Map.entry("num", "#"),
            Map.entry("dollar", "$"), Map.entry("percnt", "%"), Map.entry("amp", "&"), Map.entry("AMP", "&"),
            Map.entry("apos", "'"), Map.entry("lpar", "("), Map.entry("rpar", ")"), Map.entry("ast", "*"),
            Map.entry("midast", "*"), Map.entry("plus", "+"), Map.entry("comma", ","), Map.entry("period", "."),
            Map.entry("sol", "/"), Map.entry("colon", ":"), Map.entry("semi", ";"), Map.entry("lt", "<"),
            Map.entry("LT", "<"), Map.entry("equals", "="), Map.entry("gt", ">"), Map.entry("GT", ">"),
            Map.entry("quest", "?"), Map.entry("commat", "@"), Map.entry("lsqb", "["), Map.entry("lbrack", "["),
            Map.entry("bsol", "\\"), Map.entry("rsqb", "]"), Map.entry("rbrack", "]"), Map.entry("Hat", "^"),
            Map.entry("lowbar", "_"), Map.entry("UnderBar", "_"), Map.entry("grave", "`"),
            Map.entry("DiacriticalGrave", "`"), Map.entry("lcub", "{"), Map.entry("lbrace", "{"),
            Map.entry("verbar", "|"), Map.entry("vert", "|"), Map.entry("VerticalLine", "|"), Map.entry("rcub", "}"),
            Map.entry("rbrace", "}"), Map.entry("fjlig", "fj"), Map.entry("nbsp", "\u00A0"),
            Map.entry("NonBreakingSpace", "\u00A0"), Map.entry("shy", "\u00AD"));
    /** Names HTML also accepts without a semicolon (those of the table above). */
    private static final String[] LEGACY = {"amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT", "nbsp", "shy"};

    static String decode(String s) {
        int amp = s.indexOf('&');
        if (amp < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        b.append(s, 0, amp);
        int n = s.length();
        int i = amp;
        while (i < n) {
            char c = s.charAt(i);
            if (c != '&') {
                b.append(c);
                i++;
                continue;
            }
            int next = i + 1 < n && s.charAt(i + 1) == '#' ? numeric(s, i + 2, b) : named(s, i + 1, b);
            if (next < 0) {
                b.append('&');
                i++;
            } else {
                i = next;
            }
        }
        return b.toString();
    }

    /** A numeric reference from just after "&#": appends it and returns where it ends, or -1 if there is none. */
    private static int numeric(String s, int from, StringBuilder out) {
        int n = s.length();
        int radix = 10;
        int i = from;
        if (i < n && (s.charAt(i) == 'x' || s.charAt(i) == 'X')) {
            radix = 16;
            i++;
        }
        int start = i;
        int v = 0;
        while (i < n && Character.digit(s.charAt(i), radix) >= 0 && s.charAt(i) < 0x80) {
            v = Math.min(TOO_LARGE, v * radix + Character.digit(s.charAt(i), radix));
            i++;
        }
        if (i == start) {
            return -1;
        }
        if (i < n && s.charAt(i) == ';') {
            i++;
        }
        // the HTML parser's replacements for what is not a character
        out.appendCodePoint(v == 0 || v >= TOO_LARGE || (v >= 0xD800 && v <= 0xDFFF) ? 0xFFFD : v);
        return i;
    }

    /** A named reference from just after "&": appends it and returns where it ends, or -1 if there is none. */
    private static int named(String s, int from, StringBuilder out) {
        int n = s.length();
        int end = from;
        while (end < n && end - from <= MAX_NAME && isAlnum(s.charAt(end))) {
            end++;
        }
        if (end == from) {
            return -1;
        }
        if (end < n && s.charAt(end) == ';') {
            String v = NAMED.get(s.substring(from, end));
            if (v != null) {
                out.append(v);
                return end + 1;
            }
        }
        for (String legacy : LEGACY) {
            if (s.startsWith(legacy, from)) {
                int after = from + legacy.length();
                if (after < n && (s.charAt(after) == '=' || isAlnum(s.charAt(after)))) {
                    return -1; // "&copy=2" in a query stays as it is
                }
                out.append(NAMED.get(legacy));
                return after;
            }
        }
        return -1;
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}
