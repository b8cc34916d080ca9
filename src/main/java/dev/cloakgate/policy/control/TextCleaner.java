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

    /**
     * The cleaned text, where something invisible was removed or smuggled, and where text was obfuscated for a
     * machine reader rather than typeset for a human one: an invisible character between two letters of one word,
     * or text a terminal draws concealed.
     */
    record Cleaned(String text, BitSet hidden, BitSet obfuscated) {
        boolean hiddenIn(int from, int to) {
            int i = hidden.nextSetBit(from);
            return i >= 0 && i < to;
        }

        /** Whether at least two obfuscated positions lie between these positions. */
        boolean obfuscatedIn(int from, int to) {
            int i = obfuscated.nextSetBit(from);
            return i >= 0 && i < to && (i = obfuscated.nextSetBit(i + 1)) >= 0 && i < to;
        }
    }

    /** Longest ANSI escape sequence read as one; anything longer is not a sequence. */
    private static final int MAX_ESCAPE = 64;

    Cleaned clean(String raw) {
        if (isPlainAscii(raw)) {
            return new Cleaned(raw, new BitSet(), new BitSet());
        }
        if (raw.indexOf('\u001B') >= 0) {
            return ansi(raw);
        }
        String s = Normalizer.isNormalized(raw, Normalizer.Form.NFKC) ? raw
                : Normalizer.normalize(raw, Normalizer.Form.NFKC);
        StringBuilder out = new StringBuilder(s.length());
        BitSet hidden = new BitSet();
        BitSet interleaved = new BitSet();
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
                    if (cp != 0x00AD && Character.isLetter(out.charAt(out.length() - 1)) && i < s.length()
                            && Character.isLetter(s.codePointAt(i))) {
                        // a soft hyphen is typography; any other invisible between two letters splits a word
                        interleaved.set(out.length());
                    }
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
        return new Cleaned(out.toString(), hidden, interleaved);
    }

    /**
     * Removes ANSI escape sequences (a terminal draws them as nothing), then cleans the rest. Text drawn in the
     * conceal attribute (SGR 8) is invisible on a terminal but not to the model, so it counts as hidden. One
     * pass; a sequence longer than {@link #MAX_ESCAPE} is left as text.
     */
    private Cleaned ansi(String raw) {
        StringBuilder plain = new StringBuilder(raw.length());
        BitSet concealed = new BitSet();
        boolean conceal = false;
        int n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c != '\u001B') {
                if (conceal) {
                    concealed.set(plain.length());
                }
                plain.append(c);
                continue;
            }
            int j = i + 1;
            if (j < n && raw.charAt(j) == '[') {
                int k = j + 1;
                while (k < n && k - j < MAX_ESCAPE && raw.charAt(k) >= 0x20 && raw.charAt(k) <= 0x3F) {
                    k++;
                }
                if (k < n && raw.charAt(k) >= 0x40 && raw.charAt(k) <= 0x7E) {
                    if (raw.charAt(k) == 'm') {
                        conceal = sgrConceals(raw.substring(j + 1, k), conceal);
                    }
                    i = k;
                }
            } else if (j < n && raw.charAt(j) == ']') {
                // operating-system command, ended by BEL or ESC backslash
                int k = j + 1;
                while (k < n && k - j < MAX_ESCAPE * 16 && raw.charAt(k) != '\u0007' && raw.charAt(k) != '\u001B') {
                    k++;
                }
                i = k < n && raw.charAt(k) == '\u001B' && k + 1 < n && raw.charAt(k + 1) == '\\' ? k + 1 : k;
            } else if (j < n) {
                i = j;
            }
        }
        Cleaned rest = clean(plain.toString());
        if (concealed.isEmpty() || rest.text().length() != plain.length()) {
            // positions shift only when invisible characters were removed too; then mark the whole text
            if (!concealed.isEmpty()) {
                rest.hidden().set(0, rest.text().length());
                rest.obfuscated().set(0, rest.text().length());
            }
            return rest;
        }
        rest.hidden().or(concealed);
        rest.obfuscated().or(concealed);
        return rest;
    }

    /** The conceal state after one SGR parameter list: 8 conceals, 0 (or empty) and 28 reveal. */
    private static boolean sgrConceals(String params, boolean conceal) {
        boolean state = conceal;
        for (String p : params.split(";", 16)) {
            if (p.isEmpty() || p.equals("0") || p.equals("28")) {
                state = false;
            } else if (p.equals("8")) {
                state = true;
            }
        }
        return state;
    }

    private static boolean isPlainAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80 || s.charAt(i) == 0x1B) {
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
            // ideographic punctuation NFKC leaves alone: a full stop ends a sentence, an enumeration comma a clause
            case '\u3002' -> '.';
            case '\u3001' -> ',';
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
