package dev.cloakgate.cloak.detect;

import java.util.Collection;
import java.util.Locale;

/**
 * A fixed set of words, asked whether a region of a text is one of them without copying the region out: a scan
 * over every word of a megabyte result asks a hundred thousand times and finds a handful. Exactly, or ignoring
 * case the way {@code toLowerCase(Locale.ROOT)} does (then the set's words are lower case; for the few characters
 * whose lower case depends on context or changes length, the region is lowered as a string).
 */
final class RegionSet {
    private final String[] table;
    private final int mask;
    private final int maxLength;
    /**
     * The words' first characters below 256, a bit each: a region whose first character (lower-cased, when case is
     * ignored) is Latin-1 and not among them is none of the words, and is not hashed (most words of a text).
     */
    private final long[] firsts = new long[4];

    RegionSet(Collection<String> words) {
        int capacity = Integer.highestOneBit(Math.max(4, words.size() * 2 + 1)) << 1;
        this.table = new String[capacity];
        this.mask = capacity - 1;
        int longest = 0;
        for (String w : words) {
            int at = w.hashCode() & mask;
            while (table[at] != null && !table[at].equals(w)) {
                at = (at + 1) & mask;
            }
            table[at] = w;
            longest = Math.max(longest, w.length());
            if (!w.isEmpty() && w.charAt(0) < 256) {
                firsts[w.charAt(0) >>> 6] |= 1L << w.charAt(0);
            }
        }
        this.maxLength = longest;
    }

    /** Whether {@code s[from, to)} is one of the words. */
    boolean contains(String s, int from, int to) {
        return find(s, from, to, false);
    }

    /** Whether {@code s[from, to)} lower-cased ({@link Locale#ROOT}) is one of the words. */
    boolean containsIgnoreCase(String s, int from, int to) {
        return find(s, from, to, true);
    }

    private boolean find(String s, int from, int to, boolean lower) {
        int length = to - from;
        if (length > maxLength || length <= 0) {
            return false;
        }
        char first = s.charAt(from);
        if (first < 256) {
            // a Latin-1 character lowers to one Latin-1 character, whatever follows it
            char f = lower ? Chars.lower(first) : first;
            if ((firsts[f >>> 6] & 1L << f) == 0) {
                return false;
            }
        }
        int h = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (lower) {
                if (c == '\u0130' || c == '\u03A3' || Character.isSurrogate(c)) {
                    // dotted I lowers to two characters, capital sigma to a final or medial form, and letters
                    // beyond the BMP are lowered by code point
                    String lowered = s.substring(from, to).toLowerCase(Locale.ROOT);
                    return find(lowered, 0, lowered.length(), false);
                }
                c = Chars.lower(c);
            }
            h = 31 * h + c;
        }
        return probe(s, from, length, h, lower);
    }

    /** The table's slots from the region's hash on: a word of its length and hash whose characters match. */
    private boolean probe(String s, int from, int length, int h, boolean lower) {
        for (int at = h & mask; table[at] != null; at = (at + 1) & mask) {
            String w = table[at];
            if (w.length() == length && w.hashCode() == h
                    && (lower ? lowerMatches(w, s, from) : s.regionMatches(from, w, 0, length))) {
                return true;
            }
        }
        return false;
    }

    private static boolean lowerMatches(String w, String s, int from) {
        for (int i = 0; i < w.length(); i++) {
            if (Chars.lower(s.charAt(from + i)) != w.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
