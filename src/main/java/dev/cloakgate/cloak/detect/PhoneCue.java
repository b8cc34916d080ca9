package dev.cloakgate.cloak.detect;

import java.util.Set;

/**
 * A national number that a label or a verb introduces ("Phone: 467 3395", "fax 2345 6789", "call me on
 * 9472 7916", "Tél. : 71 234 567", "тел. 8 (921) 334-18-27") is a phone number in any country's grouping, even
 * where libphonenumber cannot place it in a configured region. The cue is evidence only for a digit run shaped
 * like a phone number; dates, versions, amounts and ISBNs next to the same words ("call at
 * 2024-05-01", "mobile 25.000.000 downloads") are not.
 */
final class PhoneCue {
    /** Labels and verbs, lower-case, in the languages the gateway's users write most. */
    private static final Set<String> CUES = Set.of(
            // English
            "phone", "phones", "telephone", "tel", "tele", "ph", "fax", "telefax", "mobile", "mob", "cell", "cellphone",
            "whatsapp", "sms", "call", "calls", "calling", "ring", "reach", "reachable", "dial", "answering",
            "contact", "landline", "t", "f", "m",
            // French
            "tél", "téléphone", "portable", "fixe", "télécopie", "appelez", "appeler", "appelle",
            "joindre", "joignable", "contacter",
            // German
            "telefon", "telefonnummer", "rufnummer", "handy", "handynummer", "mobil", "mobilnummer", "faxnummer",
            "festnetz", "durchwahl", "erreichbar", "erreichen", "ruf", "rufen", "anrufen",
            // Spanish
            "teléfono", "telefono", "tfno", "móvil", "movil", "celular", "cel", "llame", "llamar", "llámame",
            "llamame", "llámenos", "llamenos", "llámanos", "llamanos",
            // Italian
            "cellulare", "chiamare", "chiamami", "chiamaci", "chiamate", "chiami",
            // Portuguese
            "telefone", "telemóvel", "telemovel", "ligue", "ligar", "liga", "contato", "contacto",
            // Dutch
            "telefoon", "telefoonnummer", "mobiel", "gsm", "bel", "bellen", "belt", "bereikbaar",
            // Nordic, Finnish, Polish, Turkish (not "cep": in Brazil that is the postcode)
            "tlf", "tfn", "puh", "puhelin", "kom", "komórka", "faks",
            // Russian, Greek
            "тел", "телефон", "моб", "факс", "τηλ", "τηλέφωνο", "κιν", "κινητό", "φαξ");

    /** Words that may stand between a cue and its number: "call me on", "Phone no.", "llámame al", "bel me op". */
    private static final Set<String> FILLERS = Set.of(
            "me", "us", "him", "her", "them", "on", "at", "to", "is", "was", "number", "numbers", "no", "nr", "num", "n",
            "the", "my", "our", "his", "your", "via", "or", "and", "direct", "work", "home", "office", "main", "private",
            "business", "back", "please", "line",
            "au", "le", "la", "du", "de", "des", "numéro", "numero", "ou", "et", "nous", "moi",
            "unter", "an", "nummer", "mir", "uns", "oder", "und", "bitte", "mich",
            "al", "el", "del", "número", "nos", "o", "y",
            "allo", "il", "di", "e",
            "para", "pelo", "pela", "a", "do",
            "op", "ons", "of", "en");

    static final Cue CUE = new Cue(CUES, FILLERS, false);

    /** Currency codes that, right after a number, make it an amount ("mobile: 12 345 678 EUR"). */
    private static final Set<String> CURRENCIES = Set.of("EUR", "USD", "GBP", "CHF", "JPY", "CNY", "INR", "BRL",
            "AUD", "CAD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "RUB", "TRY", "MXN", "ZAR");

    private PhoneCue() {
    }

    /**
     * Whether a cued candidate ({@code +}, digits and single separators, as the detector cut it) is shaped like a
     * phone number: 6 to 15 digits; one run of at least 7, or groups of which only the first (a trunk prefix,
     * "8 (921)") is a single digit; and no amount or version.
     */
    static boolean shaped(String cand, int digits) {
        if (digits < 6 || digits > 15) {
            return false;
        }
        Groups g = new Groups(cand);
        if (g.count == 1) {
            return digits >= 7 && !compactDate(cand) && !isbn(cand);
        }
        for (int i = 1; i < g.count; i++) {
            if (g.lens[i] == 1) {
                return false; // 978-3-16-148410-0
            }
        }
        return !amountOrVersion(g, cand);
    }

    /**
     * Dots that make a decimal (12345.67), thousands (1.234.567, 25.000.000) or a version (10.0.19045.3693): for
     * a value under a phone key as for a cued one.
     */
    static boolean amountOrVersion(String cand) {
        return amountOrVersion(new Groups(cand), cand);
    }

    private static boolean amountOrVersion(Groups g, String cand) {
        if (g.count < 2 || g.seps[0] != '.') {
            return false;
        }
        if (g.count == 2 && g.lens[1] == 2) {
            return true;
        }
        boolean thousands = g.lens[0] <= 3 && cand.charAt(0) != '0';
        for (int i = 1; i < g.count; i++) {
            if (g.lens[i] == 1) {
                return true;
            }
            thousands &= g.lens[i] == 3 && (i == g.count - 1 || g.seps[i] == '.');
        }
        return thousands;
    }

    /** The digit groups of a candidate: their lengths and the separator after each. */
    private static final class Groups {
        final int[] lens = new int[20];
        final char[] seps = new char[20];
        int count;

        Groups(String cand) {
            int len = 0;
            for (int i = 0; i < cand.length() && count < lens.length; i++) {
                char c = cand.charAt(i);
                if (Chars.digit(c)) {
                    len++;
                } else if (len > 0) {
                    seps[count] = c;
                    lens[count++] = len;
                    len = 0;
                }
            }
            if (len > 0 && count < lens.length) {
                lens[count++] = len;
            }
        }
    }

    /** A percent sign, a currency sign or code right after the number: an amount or a share, not a phone. */
    static boolean amountAfter(String s, int end) {
        int i = end;
        while (i < s.length() && s.charAt(i) == ' ' && i - end < 2) {
            i++;
        }
        if (i >= s.length()) {
            return false;
        }
        char c = s.charAt(i);
        if (c == '%' || c == '€' || c == '$' || c == '£' || c == '¥' || c == '₹') {
            return true;
        }
        return i + 3 <= s.length() && (i + 3 == s.length() || !Chars.wordish(s.charAt(i + 3)))
                && CURRENCIES.contains(s.substring(i, i + 3));
    }

    /** 20240501: a year of this or the last century, a month, a day. */
    private static boolean compactDate(String d) {
        if (d.length() != 8 || !(d.startsWith("19") || d.startsWith("20"))) {
            return false;
        }
        int month = (d.charAt(4) - '0') * 10 + d.charAt(5) - '0';
        int day = (d.charAt(6) - '0') * 10 + d.charAt(7) - '0';
        return month >= 1 && month <= 12 && day >= 1 && day <= 31;
    }

    /** An ISBN-13 (978 or 979, with its mod-10 check digit). */
    private static boolean isbn(String d) {
        if (d.length() != 13 || !(d.startsWith("978") || d.startsWith("979"))) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < 13; i++) {
            sum += (d.charAt(i) - '0') * (i % 2 == 0 ? 1 : 3);
        }
        return sum % 10 == 0;
    }
}
