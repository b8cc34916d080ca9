package dev.cloakgate.policy.control;

import java.lang.Character.UnicodeScript;
import java.net.IDN;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Host text as a URL parser would end up connecting to it: percent-decoded, IDNA-mapped to ASCII, and any form
 * of IP literal browsers or curl accept reduced to its address. Pure functions; never resolves a name.
 */
final class Hosts {
    private Hosts() {
    }

    /** What a host text denotes. */
    sealed interface Host permits Ip, Name, Invalid {
    }

    /** An address: dotted quad for IPv4 (IPv4-mapped IPv6 included), eight full hex words for IPv6. */
    record Ip(String address) implements Host {
    }

    /** A domain name in lower-case ASCII (punycode) without a trailing dot, and its Unicode form. */
    record Name(String ascii, String unicode) implements Host {
    }

    /** Nothing a parser would connect to as written; treated as not allowed. */
    record Invalid() implements Host {
    }

    /** Longer than any name DNS can carry even before IDNA shrinks it. */
    private static final int MAX_INPUT = 1024;

    /**
     * Letters outside Latin that render like Latin ones in common fonts (Cyrillic, Greek, Armenian). Not the
     * whole Unicode confusables table: the ones that make plausible lookalikes of ASCII domain names.
     */
    private static final Set<Integer> LATIN_LOOKALIKES = Set.of(
            // Cyrillic а в е к м н о р с т у х ѕ і ј һ ӏ ү ԁ ԛ ԝ ё ї
            0x0430, 0x0432, 0x0435, 0x043A, 0x043C, 0x043D, 0x043E, 0x0440, 0x0441, 0x0442, 0x0443, 0x0445, 0x0455,
            0x0456, 0x0458, 0x04BB, 0x04CF, 0x04AF, 0x0501, 0x051B, 0x051D, 0x0451, 0x0457,
            // Greek α ι κ ν ο ρ τ υ χ ϲ ϳ
            0x03B1, 0x03B9, 0x03BA, 0x03BD, 0x03BF, 0x03C1, 0x03C4, 0x03C5, 0x03C7, 0x03F2, 0x03F3,
            // Armenian հ ո ս ց օ
            0x0570, 0x0578, 0x057D, 0x0581, 0x0585);

    static Host parse(String raw) {
        String h = Decoding.percentDecodeFully(raw);
        if (h == null || h.isEmpty() || h.length() > MAX_INPUT) {
            return new Invalid();
        }
        if (h.charAt(0) == '[') {
            if (h.charAt(h.length() - 1) != ']') {
                return new Invalid();
            }
            Host v6 = parseIpv6(h.substring(1, h.length() - 1));
            return v6 == null ? new Invalid() : v6;
        }
        if (h.indexOf(':') >= 0) {
            Host v6 = parseIpv6(h); // a bare IPv6 literal, as written under a "host" key
            return v6 == null ? new Invalid() : v6;
        }
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c == '\u00DF' || c == '\u03C2' || c == '\u200C' || c == '\u200D') {
                // IDNA2003 (the JDK's) maps these away, browsers (UTS 46) keep them: two different hosts
                return new Invalid();
            }
        }
        String ascii;
        try {
            // IDNA maps case, full-width letters and digits and ideographic full stops the way browsers do
            ascii = IDN.toASCII(h).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return new Invalid();
        }
        if (ascii.endsWith(".")) {
            ascii = ascii.substring(0, ascii.length() - 1); // example.com. is example.com
        }
        if (ascii.isEmpty() || ascii.startsWith(".") || ascii.contains("..")) {
            return new Invalid();
        }
        if (endsInNumber(ascii)) {
            String v4 = parseIpv4(ascii);
            return v4 == null ? new Invalid() : new Ip(v4);
        }
        for (int i = 0; i < ascii.length(); i++) {
            char c = ascii.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.')) {
                return new Invalid();
            }
        }
        String unicode;
        try {
            unicode = IDN.toUnicode(ascii);
        } catch (IllegalArgumentException e) {
            return new Invalid();
        }
        return new Name(ascii, unicode);
    }

    // --- IPv4, the WHATWG way (which is also inet_aton's, and so curl's) ---

    /** The last label is a number: then the whole host must be an IPv4 address or it is invalid. */
    private static boolean endsInNumber(String ascii) {
        String last = ascii.substring(ascii.lastIndexOf('.') + 1);
        if (last.isEmpty()) {
            return false;
        }
        if (allDigits(last, 0)) {
            return true;
        }
        return (last.startsWith("0x") || last.startsWith("0X")) && allHex(last, 2);
    }

    /** 127.0.0.1, 127.1, 2130706433, 0177.0.0.1, 0x7f.0.0.1, 0x7f000001 and mixtures: all 127.0.0.1. */
    static String parseIpv4(String ascii) {
        String[] parts = ascii.split("\\.", -1);
        if (parts.length > 4) {
            return null;
        }
        long[] nums = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            long v = ipv4Number(parts[i]);
            if (v < 0) {
                return null;
            }
            nums[i] = v;
        }
        long addr = 0;
        for (int i = 0; i < nums.length - 1; i++) {
            if (nums[i] > 255) {
                return null;
            }
            addr |= nums[i] << (8 * (3 - i));
        }
        long last = nums[nums.length - 1];
        if (last >= (1L << (8 * (5 - nums.length)))) {
            return null;
        }
        addr |= last;
        return ((addr >> 24) & 255) + "." + ((addr >> 16) & 255) + "." + ((addr >> 8) & 255) + "." + (addr & 255);
    }

    /** One part: 0x.. hex, 0.. octal, else decimal; -1 when not a number or absurdly long. */
    private static long ipv4Number(String p) {
        if (p.isEmpty() || p.length() > 34) {
            return -1;
        }
        int radix = 10;
        String digits = p;
        if (p.startsWith("0x") || p.startsWith("0X")) {
            radix = 16;
            digits = p.substring(2);
            if (digits.isEmpty()) {
                return 0; // "0x" is zero to WHATWG
            }
        } else if (p.length() > 1 && p.charAt(0) == '0') {
            radix = 8;
            digits = p.substring(1);
        }
        long v = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = Character.digit(digits.charAt(i), radix);
            if (d < 0 || digits.charAt(i) >= 0x80) {
                return -1;
            }
            v = v * radix + d;
            if (v > 0xFFFFFFFFL) {
                return -1; // larger than any part can be; stops overflow too
            }
        }
        return v;
    }

    // --- IPv6 ---

    /** Parses an IPv6 literal (zone id dropped); IPv4-mapped addresses come back as their IPv4 address. */
    static Host parseIpv6(String s) {
        int zone = s.indexOf('%');
        String a = zone >= 0 ? s.substring(0, zone) : s;
        if (a.isEmpty() || a.length() > 64) {
            return null;
        }
        int[] words = new int[8];
        int dc = a.indexOf("::");
        if (dc >= 0 && a.indexOf("::", dc + 1) >= 0) {
            return null;
        }
        String left = dc >= 0 ? a.substring(0, dc) : a;
        String right = dc >= 0 ? a.substring(dc + 2) : "";
        int[] l = groups(left, dc < 0);
        int[] r = dc >= 0 ? groups(right, true) : new int[0];
        if (l == null || r == null) {
            return null;
        }
        if (dc < 0 ? l.length != 8 : l.length + r.length > 7) {
            return null;
        }
        System.arraycopy(l, 0, words, 0, l.length);
        System.arraycopy(r, 0, words, 8 - r.length, r.length);
        boolean mapped = words[5] == 0xffff;
        for (int i = 0; i < 5; i++) {
            mapped &= words[i] == 0;
        }
        if (mapped) {
            return new Ip((words[6] >> 8) + "." + (words[6] & 255) + "." + (words[7] >> 8) + "." + (words[7] & 255));
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            b.append(i == 0 ? "" : ":").append(Integer.toHexString(words[i]));
        }
        return new Ip(b.toString());
    }

    /** Colon-separated hex words; the last may be a dotted quad (two words) when {@code tail} is true. */
    private static int[] groups(String s, boolean tail) {
        if (s.isEmpty()) {
            return new int[0];
        }
        String[] parts = s.split(":", -1);
        int n = parts.length;
        String lastPart = parts[n - 1];
        boolean quad = tail && lastPart.indexOf('.') >= 0;
        int[] out = new int[quad ? n + 1 : n];
        for (int i = 0; i < n - (quad ? 1 : 0); i++) {
            String g = parts[i];
            if (g.isEmpty() || g.length() > 4 || !allHex(g, 0)) {
                return null;
            }
            out[i] = Integer.parseInt(g, 16);
        }
        if (quad) {
            String[] q = lastPart.split("\\.", -1);
            if (q.length != 4) {
                return null;
            }
            int[] b = new int[4];
            for (int i = 0; i < 4; i++) {
                // strict dotted decimal inside IPv6, as WHATWG and inet_pton require
                if (q[i].isEmpty() || q[i].length() > 3 || !allDigits(q[i], 0)
                        || (q[i].length() > 1 && q[i].charAt(0) == '0')) {
                    return null;
                }
                b[i] = Integer.parseInt(q[i]);
                if (b[i] > 255) {
                    return null;
                }
            }
            out[n - 1] = (b[0] << 8) | b[1];
            out[n] = (b[2] << 8) | b[3];
        }
        return out;
    }

    private static boolean allDigits(String s, int from) {
        if (s.length() <= from) {
            return false;
        }
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean allHex(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
                return false;
            }
        }
        return true;
    }

    // --- homographs ---

    /**
     * A label that mixes scripts (beyond the mixes CJK writing uses) or contains a letter that passes for Latin.
     * Checked per label: a Cyrillic label under a Latin TLD is ordinary; {@code exаmple} with a Cyrillic а is not.
     */
    static boolean homographLabel(String label) {
        EnumSet<UnicodeScript> scripts = EnumSet.noneOf(UnicodeScript.class);
        for (int i = 0; i < label.length();) {
            int cp = label.codePointAt(i);
            i += Character.charCount(cp);
            if (LATIN_LOOKALIKES.contains(cp)) {
                return true;
            }
            UnicodeScript s = UnicodeScript.of(cp);
            if (s != UnicodeScript.COMMON && s != UnicodeScript.INHERITED) {
                scripts.add(s);
            }
        }
        if (scripts.size() <= 1) {
            return false;
        }
        return !(cjk(scripts, UnicodeScript.HIRAGANA, UnicodeScript.KATAKANA)
                || cjk(scripts, UnicodeScript.HANGUL, UnicodeScript.HANGUL)
                || cjk(scripts, UnicodeScript.BOPOMOFO, UnicodeScript.BOPOMOFO));
    }

    /** The combinations UTS #39 "highly restrictive" allows: Latin + Han + one East Asian set. */
    private static boolean cjk(EnumSet<UnicodeScript> scripts, UnicodeScript a, UnicodeScript b) {
        EnumSet<UnicodeScript> ok = EnumSet.of(UnicodeScript.LATIN, UnicodeScript.HAN, a, b);
        return ok.containsAll(scripts);
    }

    /** Any of the first {@code labels} labels of a Unicode host is a homograph (all of them when negative). */
    static boolean homograph(String unicode, int labels) {
        String[] parts = unicode.split("\\.", -1);
        int n = labels < 0 ? parts.length : Math.min(labels, parts.length);
        for (int i = 0; i < n; i++) {
            if (homographLabel(parts[i])) {
                return true;
            }
        }
        return false;
    }
}
