package dev.cloakgate.cloak.detect;

import java.util.List;
import java.util.Map;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;

/**
 * IBANs, compact or in groups of four: the country's registered length and the ISO 7064 mod-97 check must
 * both hold, so a random alphanumeric string passes about once in a hundred times a length match.
 */
public final class IbanDetector implements Detector {
    /** ISO 13616 lengths per country (SWIFT IBAN registry). */
    private static final Map<String, Integer> LENGTHS = Map.ofEntries(
            Map.entry("AD", 24), Map.entry("AE", 23), Map.entry("AL", 28), Map.entry("AT", 20), Map.entry("AZ", 28),
            Map.entry("BA", 20), Map.entry("BE", 16), Map.entry("BG", 22), Map.entry("BH", 22), Map.entry("BI", 27),
            Map.entry("BR", 29), Map.entry("BY", 28), Map.entry("CH", 21), Map.entry("CR", 22), Map.entry("CY", 28),
            Map.entry("CZ", 24), Map.entry("DE", 22), Map.entry("DJ", 27), Map.entry("DK", 18), Map.entry("DO", 28),
            Map.entry("EE", 20), Map.entry("EG", 29), Map.entry("ES", 24), Map.entry("FI", 18), Map.entry("FK", 18),
            Map.entry("FO", 18), Map.entry("FR", 27), Map.entry("GB", 22), Map.entry("GE", 22), Map.entry("GI", 23),
            Map.entry("GL", 18), Map.entry("GR", 27), Map.entry("GT", 28), Map.entry("HR", 21), Map.entry("HU", 28),
            Map.entry("IE", 22), Map.entry("IL", 23), Map.entry("IQ", 23), Map.entry("IS", 26), Map.entry("IT", 27),
            Map.entry("JO", 30), Map.entry("KW", 30), Map.entry("KZ", 20), Map.entry("LB", 28), Map.entry("LC", 32),
            Map.entry("LI", 21), Map.entry("LT", 20), Map.entry("LU", 20), Map.entry("LV", 21), Map.entry("LY", 25),
            Map.entry("MC", 27), Map.entry("MD", 24), Map.entry("ME", 22), Map.entry("MK", 19), Map.entry("MN", 20),
            Map.entry("MR", 27), Map.entry("MT", 31), Map.entry("MU", 30), Map.entry("NI", 28), Map.entry("NL", 18),
            Map.entry("NO", 15), Map.entry("OM", 23), Map.entry("PK", 24), Map.entry("PL", 28), Map.entry("PS", 29),
            Map.entry("PT", 25), Map.entry("QA", 29), Map.entry("RO", 24), Map.entry("RS", 22), Map.entry("RU", 33),
            Map.entry("SA", 24), Map.entry("SC", 31), Map.entry("SD", 18), Map.entry("SE", 24), Map.entry("SI", 19),
            Map.entry("SK", 24), Map.entry("SM", 27), Map.entry("SO", 23), Map.entry("ST", 25), Map.entry("SV", 28),
            Map.entry("TL", 23), Map.entry("TN", 24), Map.entry("TR", 26), Map.entry("UA", 29), Map.entry("VA", 22),
            Map.entry("VG", 24), Map.entry("XK", 20), Map.entry("YE", 30));

    @Override
    public Category category() {
        return Category.IBAN;
    }

    @Override
    public void detect(String s, List<Finding> out) {
        int n = s.length();
        for (int i = 0; i + 4 <= n; i++) {
            char a = s.charAt(i);
            if (!Chars.asciiLetter(a) || (Chars.wordAt(s, i - 1) && s.charAt(i - 1) != '_')) {
                continue;
            }
            char b = s.charAt(i + 1);
            if (!Chars.asciiLetter(b) || !Chars.digit(s.charAt(i + 2)) || !Chars.digit(s.charAt(i + 3))) {
                continue;
            }
            Integer len = LENGTHS.get("" + Character.toUpperCase(a) + Character.toUpperCase(b));
            if (len == null) {
                continue;
            }
            int end = take(s, i, len);
            if (end > 0 && !Chars.wordAt(s, end) && mod97(s, i, end)) {
                out.add(new Finding(Category.IBAN, i, end));
                i = end - 1;
            }
        }
    }

    @Override
    public boolean acceptsHinted(String value) {
        String v = value.replace(" ", "").toUpperCase(java.util.Locale.ROOT);
        return v.length() >= 15 && v.length() <= 34 && v.matches("[A-Z]{2}[0-9]{2}[A-Z0-9]+");
    }

    /** The end of exactly {@code len} alphanumerics from {@code start}, allowing single spaces between them; or -1. */
    private static int take(String s, int start, int len) {
        int count = 0;
        int i = start;
        int n = s.length();
        while (i < n && count < len) {
            char c = s.charAt(i);
            if (Chars.asciiAlnum(c)) {
                count++;
                i++;
            } else if (c == ' ' && i + 1 < n && Chars.asciiAlnum(s.charAt(i + 1)) && i > start
                    && s.charAt(i - 1) != ' ') {
                i++;
            } else {
                break;
            }
        }
        return count == len ? i : -1;
    }

    /** ISO 7064 mod 97-10 over the alphanumerics in [start, end): the first four moved to the end. */
    static boolean mod97(String s, int start, int end) {
        StringBuilder v = new StringBuilder(40);
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c != ' ') {
                v.append(Character.toUpperCase(c));
            }
        }
        String r = v.substring(4) + v.substring(0, 4);
        int mod = 0;
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            if (Chars.digit(c)) {
                mod = (mod * 10 + (c - '0')) % 97;
            } else if (Chars.upper(c)) {
                int val = c - 'A' + 10;
                mod = (mod * 100 + val) % 97;
            } else {
                return false;
            }
        }
        return mod == 1;
    }
}
