package dev.cloakgate.cloak.detect;

/** Character tests shared by the scanners; ASCII fast paths, no regex. */
final class Chars {
    private Chars() {
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
