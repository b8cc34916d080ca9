package dev.cloakgate.cloak.detect;

/** Character tests shared by the scanners; ASCII fast paths, no regex. */
final class Chars {
    private Chars() {
    }

    // Latin-1 answers looked up, not asked of Character (whose per-plane dispatch does not inline once a text
    // has shown it several planes); built from the same Character methods, so they cannot disagree.
    private static final boolean[] LETTER = latin1(Character::isLetter);
    private static final boolean[] ALPHABETIC = latin1(Character::isAlphabetic);
    private static final boolean[] LETTER_OR_DIGIT = latin1(Character::isLetterOrDigit);

    private static boolean[] latin1(java.util.function.IntPredicate p) {
        boolean[] t = new boolean[256];
        for (int c = 0; c < t.length; c++) {
            t[c] = p.test(c);
        }
        return t;
    }

    private static final char[] LOWER = new char[256];

    static {
        for (char c = 0; c < LOWER.length; c++) {
            LOWER[c] = Character.toLowerCase(c);
        }
    }

    /** {@link Character#toLowerCase(char)}. */
    static char lower(char c) {
        return c < 256 ? LOWER[c] : Character.toLowerCase(c);
    }

    /** {@link Character#isLetter(char)}. */
    static boolean letter(char c) {
        return c < 256 ? LETTER[c] : Character.isLetter(c);
    }

    /** {@link Character#isAlphabetic(int)}. */
    static boolean alphabetic(char c) {
        return c < 256 ? ALPHABETIC[c] : Character.isAlphabetic(c);
    }

    /** {@link Character#isLetterOrDigit(char)}. */
    static boolean letterOrDigit(char c) {
        return c < 256 ? LETTER_OR_DIGIT[c] : Character.isLetterOrDigit(c);
    }

    static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean asciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    static boolean asciiAlnum(char c) {
        return digit(c) || asciiLetter(c);
    }

    static boolean upper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    static boolean hex(char c) {
        return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** A character that can sit inside a word or identifier, so a match touching it is part of something longer. */
    static boolean wordish(char c) {
        return asciiAlnum(c) || c == '_' || (c > 127 && Character.isLetterOrDigit(c));
    }

    static boolean wordAt(String s, int i) {
        return i >= 0 && i < s.length() && wordish(s.charAt(i));
    }
}
