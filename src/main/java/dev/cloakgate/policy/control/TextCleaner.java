package dev.cloakgate.policy.control;

import java.text.Normalizer;
import java.util.BitSet;

/**
 * Puts text into the form the rules read: NFKC (full-width and mathematical letters become plain ones), zero-width
 * and bidi controls removed (their positions remembered, since hiding an instruction is aggravating), Unicode tag
 * characters decoded back to the ASCII they smuggle, and common Cyrillic and Greek lookalikes folded to Latin.
 * Every step maps one character to at most one, so positions stay meaningful after the first.
 */
final class TextCleaner {

    /** The cleaned text and where something invisible was removed or smuggled. */
    record Cleaned(String text, BitSet hidden) {
        boolean hiddenIn(int from, int to) {
            int i = hidden.nextSetBit(from);
            return i >= 0 && i < to;
        }
    }

    Cleaned clean(String raw) {
        if (isPlainAscii(raw)) {
            return new Cleaned(raw, new BitSet());
        }
        String s = Normalizer.isNormalized(raw, Normalizer.Form.NFKC) ? raw
                : Normalizer.normalize(raw, Normalizer.Form.NFKC);
        StringBuilder out = new StringBuilder(s.length());
        BitSet hidden = new BitSet();
        for (int i = 0; i < s.length();) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp >= 0xE0020 && cp <= 0xE007E) {
                // tag characters render as nothing but spell ASCII to a tokenizer
                hidden.set(out.length());
                out.append((char) (cp - 0xE0000));
            } else if (isInvisible(cp)) {
                hidden.set(out.length());
                if (out.length() > 0) {
                    hidden.set(out.length() - 1);
                }
            } else if (cp == 0xFE0F || cp == 0xFE0E || (cp >= 0xE0000 && cp <= 0xE01EF)) {
                // emoji presentation selectors are ordinary; drop without suspicion
                continue;
            } else if (cp < 0x10000) {
                out.append(fold((char) cp));
            } else {
                out.appendCodePoint(cp);
            }
        }
        return new Cleaned(out.toString(), hidden);
    }

    private static boolean isPlainAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean isInvisible(int cp) {
        return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064)
                || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF || cp == 0x00AD || cp == 0x180E || cp == 0x034F
                || cp == 0x061C || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0;
    }

    /** Lookalikes that survive NFKC: Cyrillic and Greek letters drawn like Latin ones. */
    private static char fold(char c) {
        if (c < 0x0370) {
            return c == 'ı' ? 'i' : c == 'ɡ' ? 'g' : c;
        }
        return switch (c) {
            case 'а', 'α' -> 'a';
            case 'е', 'ε', 'ѐ' -> 'e';
            case 'о', 'ο', 'σ' -> 'o';
            case 'р', 'ρ' -> 'p';
            case 'с', 'ϲ' -> 'c';
            case 'у', 'γ' -> 'y';
            case 'х', 'χ' -> 'x';
            case 'і', 'ι', 'ӏ' -> 'i';
            case 'ј' -> 'j';
            case 'ѕ' -> 's';
            case 'ԁ' -> 'd';
            case 'һ' -> 'h';
            case 'ԛ' -> 'q';
            case 'ԝ' -> 'w';
            case 'к', 'κ' -> 'k';
            case 'ν' -> 'v';
            case 'τ' -> 't';
            case 'υ' -> 'u';
            case 'А', 'Α' -> 'A';
            case 'В', 'Β' -> 'B';
            case 'Е', 'Ε' -> 'E';
            case 'К', 'Κ' -> 'K';
            case 'М', 'Μ' -> 'M';
            case 'Н', 'Η' -> 'H';
            case 'О', 'Ο' -> 'O';
            case 'Р', 'Ρ' -> 'P';
            case 'С' -> 'C';
            case 'Т', 'Τ' -> 'T';
            case 'Х', 'Χ' -> 'X';
            case 'У', 'Υ' -> 'Y';
            case 'І', 'Ι' -> 'I';
            case 'Ј' -> 'J';
            case 'Ѕ' -> 'S';
            case 'Ζ' -> 'Z';
            case 'Ν' -> 'N';
            default -> c;
        };
    }
}
