package dev.cloakgate.cloak.detect;

import java.util.Collection;
import java.util.Locale;

/**
 * A fixed set of words, asked whether a region of a text is one of them without copying the region out: a scan
 * over every word of a megabyte result asks a hundred thousand times and finds a handful. Exact, or ignoring
 * case the way {@code toLowerCase(Locale.ROOT)} does (for the few characters whose lower case depends on
 * context or changes length, the region is lowered as a string).
 */
final class RegionSet {
    private final String[] table;
    private final int mask;
    private final boolean ignoreCase;
    private final int maxLength;

    /** @param words lower-cased already when {@code ignoreCase} */
    RegionSet(Collection<String> words, boolean ignoreCase) {
        int capacity = Integer.highestOneBit(Math.max(4, words.size() * 2 + 1)) << 1;
        this.table = new String[capacity];
        this.mask = capacity - 1;
        this.ignoreCase = ignoreCase;
        int longest = 0;
        for (String w : words) {
            int at = w.hashCode() & mask;
            while (table[at] != null && !table[at].equals(w)) {
                at = (at + 1) & mask;
            }
            table[at] = w;
            longest = Math.max(longest, w.length());
        }
        this.maxLength = longest;
    }

    boolean isEmpty() {
        return maxLength == 0;
    }

    /** Whether {@code s[from, to)} is one of the words. */
    boolean contains(String s, int from, int to) {
        int length = to - from;
        if (length > maxLength || length <= 0) {
            return false;
        }
        int h = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (ignoreCase) {
                if (c == '\u0130' || c == '\u03A3' || Character.isSurrogate(c)) {
                    // dotted I lowers to two characters, capital sigma to a final or medial form, and letters
                    // beyond the BMP are lowered by code point
                    return contains(s.substring(from, to).toLowerCase(Locale.ROOT));
                }
                c = Character.toLowerCase(c);
            }
            h = 31 * h + c;
        }
        for (int at = h & mask; table[at] != null; at = (at + 1) & mask) {
            String w = table[at];
            if (w.length() == length && w.hashCode() == h && matches(w, s, from)) {
                return true;
            }
        }
        return false;
    }

    private boolean contains(String lowered) {
        for (int at = lowered.hashCode() & mask; table[at] != null; at = (at + 1) & mask) {
            if (table[at].equals(lowered)) {
                return true;
            }
        }
        return false;
    }

    private boolean matches(String w, String s, int from) {
        if (!ignoreCase) {
            return s.regionMatches(from, w, 0, w.length());
        }
        for (int i = 0; i < w.length(); i++) {
            if (Character.toLowerCase(s.charAt(from + i)) != w.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
