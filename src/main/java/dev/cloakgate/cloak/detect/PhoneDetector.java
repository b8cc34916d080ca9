package dev.cloakgate.cloak.detect;

import java.util.List;
import java.util.Locale;

import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.Phonenumber;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;

/**
 * Phone numbers, validated by libphonenumber: international forms ({@code +33 6 12 34 56 78},
 * {@code 0044 20 7946 0958}) against the numbering plan of their country code, national forms
 * ({@code 06 12 34 56 78}, {@code (020) 7946 0958}) against each configured region. A national candidate must
 * look like a phone number (grouped, or next to a word such as "tel"): many plans accept almost any digit run,
 * and order numbers are not phone numbers.
 */
public final class PhoneDetector implements Detector {
    /** Words that, just before a bare national number, say it is something else. */
    private static final String[] NOT_PHONE = { "pin", "#", "order", "ticket", "invoice", "ref", "id", "no.", "nr",
            "account", "acct", "sku", "serial", "build", "version", "batch", "case", "tracking", "po ", "iban",
            "ssn", "siret", "siren", "vat", "tax", "isbn", "kvk", "cpf", "cnpj", "cep", "zip", "postal", "plz",
            "postcode" };
    private static final String[] KEYWORDS = { "tel", "phone", "mobile", "cell", "fax", "call", "whatsapp", "sms",
            "tél", "telefon", "handy", "móvil", "movil", "celular", "portable", "rufnummer", "contact" };

    private final PhoneNumberUtil util = PhoneNumberUtil.getInstance();
    private final List<String> regions;
    /** Each region's national (trunk) prefix, "" when it has none: a cheap filter before libphonenumber. */
    private final String[] trunks;
    private final java.util.Set<Integer> callingCodes;

    /** @param regions ISO 3166 regions whose national formats are accepted (e.g. US, GB, FR) */
    public PhoneDetector(List<String> regions) {
        this.regions = List.copyOf(regions);
        this.callingCodes = util.getSupportedCallingCodes();
        this.trunks = new String[regions.size()];
        for (int i = 0; i < trunks.length; i++) {
            String t = util.getNddPrefixForRegion(regions.get(i), true);
            trunks[i] = t == null ? "" : t;
        }
    }

    @Override
    public Category category() {
        return Category.PHONE;
    }

    @Override
    public void detect(String s, List<Finding> out) {
        int n = s.length();
        int i = 0;
        int chainEnd = -1; // where the last number a cue introduced ends
        while (i < n) {
            char c = s.charAt(i);
            if (c > '9' || (c < '0' && c != '+' && c != '(')) {
                i++;
                continue;
            }
            boolean startsHere = (Chars.digit(c) || ((c == '+' || c == '(') && i + 1 < n && Chars.digit(s.charAt(i + 1))))
                    && boundary(s, i);
            if (!startsHere) {
                i++;
                continue;
            }
            int end = candidateEnd(s, i);
            int digits = countDigits(s, i, end);
            if (digits >= 6 && digits <= 16 && !Chars.wordAt(s, end) && !somethingElse(s, i, end)) {
                boolean valid = digits >= 7 && valid(s, i, end);
                // a label or verb before it makes a phone-shaped run a phone in any country's grouping
                boolean cued = (valid || (PhoneCue.shaped(s.substring(i, end), digits) && !PhoneCue.amountAfter(s, end)))
                        && PhoneCue.CUE.introduces(s, i, chainEnd);
                if (valid || cued) {
                    out.add(new Finding(Category.PHONE, i, end));
                    chainEnd = cued ? end : -1;
                    i = end;
                    continue;
                }
            }
            // not a phone here: move past this digit run
            int j = i + 1;
            while (j < n && Chars.digit(s.charAt(j))) {
                j++;
            }
            i = j;
        }
    }

    @Override
    public boolean acceptsHinted(String value) {
        String v = value.strip();
        int digits = countDigits(v, 0, v.length());
        return digits >= 7 && digits <= 16 && v.chars().allMatch(ch -> Chars.digit((char) ch) || " +-.()/x".indexOf(ch) >= 0)
                && !dateOrDottedQuad(v) && !range(v) && !PhoneCue.amountOrVersion(v);
    }

    private static boolean boundary(String s, int i) {
        if (i == 0) {
            return true;
        }
        char p = s.charAt(i - 1);
        if (i >= 2 && (p == ' ' || p == '-' || p == '.') && Chars.digit(s.charAt(i - 2))) {
            return false; // inside a longer run of digit groups (an invalid card or IBAN): not a start
        }
        return !((Chars.wordish(p) && p != '_') || p == '.' || p == '/' || p == '#' || p == '+' || p == '-' || p == '$'
                || p == '€' || p == '£' || p == ':' && i >= 2 && Chars.digit(s.charAt(i - 2)));
    }

    /** Digits with single separators (space, dash, dot, slash, parentheses) between them. */
    private static int candidateEnd(String s, int i) {
        int n = s.length();
        int j = i;
        if (s.charAt(j) == '+' || s.charAt(j) == '(') {
            j++;
        }
        int lastDigit = j;
        int seps = 0;
        int digits = 0;
        // past 17 digits it is no phone number whatever follows: stop, so a long run costs no more than that
        while (j < n && digits <= 17) {
            char c = s.charAt(j);
            if (Chars.digit(c)) {
                digits++;
                lastDigit = j;
                seps = 0;
                j++;
            } else if ((c == ' ' || c == '-' || c == '.' || c == '/' || c == '(' || c == ')')
                    && (seps == 0 || (seps == 1 && (c == '(' || s.charAt(j - 1) == ')')))) {
                // one separator between groups; two only around a parenthesised area code: ") " or " ("
                seps++;
                j++;
            } else {
                break;
            }
        }
        int end = lastDigit + 1;
        if (end < n && s.charAt(end) == ')' && s.lastIndexOf('(', end) >= i) {
            end++;
        }
        return end;
    }

    /** Shapes that are something else whatever the words around them say: dates, times, addresses, versions. */
    private static boolean somethingElse(String s, int start, int end) {
        if (end + 1 < s.length() && s.charAt(end) == ':' && Chars.digit(s.charAt(end + 1))) {
            return true; // "2024-12-05 09:14": a date and the hour of a time
        }
        String cand = s.substring(start, end);
        return dateOrDottedQuad(cand) || notAPhoneShape(cand) || range(cand);
    }

    /**
     * Two groups of four digits joined by '-' or '/' that go forward and are both times of day on the quarter
     * hour or five minutes (0930-1030, a slot) or both years (2019-2024).
     */
    static boolean range(String c) {
        if (c.length() != 9 || (c.charAt(4) != '-' && c.charAt(4) != '/')) {
            return false;
        }
        for (int i = 0; i < 9; i++) {
            if (i != 4 && !Chars.digit(c.charAt(i))) {
                return false;
            }
        }
        int x = Integer.parseInt(c, 0, 4, 10);
        int y = Integer.parseInt(c, 5, 9, 10);
        if (y <= x) {
            return false;
        }
        boolean times = x / 100 <= 23 && y / 100 <= 24 && x % 100 < 60 && y % 100 < 60 && x % 5 == 0 && y % 5 == 0;
        return times || (x >= 1900 && y <= 2099);
    }

    private boolean valid(String s, int start, int end) {
        String cand = s.substring(start, end);
        String digits = digitsOf(cand);
        if (cand.startsWith("+") || cand.startsWith("00")) {
            return international(cand.startsWith("00") ? digits.substring(2) : digits);
        }
        boolean checkedContext = false;
        for (int r = 0; r < trunks.length; r++) {
            if (!plausible(digits, trunks[r], cand.startsWith("("))) {
                continue;
            }
            if (!checkedContext) {
                if ((!grouped(cand) && !keywordBefore(s, start)) || before(s, start, NOT_PHONE, 16)) {
                    return false;
                }
                checkedContext = true;
            }
            String region = regions.get(r);
            String nsn = digits;
            if (!trunks[r].isEmpty() && nsn.startsWith(trunks[r]) && (!trunks[r].equals("1") || nsn.length() == 11)) {
                nsn = nsn.substring(trunks[r].length());
            }
            Phonenumber.PhoneNumber p = number(util.getCountryCodeForRegion(region), nsn);
            if (p != null && util.isValidNumberForRegion(p, region)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Validates digits written after {@code +} or {@code 00}: country calling codes are prefix-free, so the
     * first one to three digits that form a known code are the code.
     */
    private boolean international(String digits) {
        for (int len = 1; len <= 3 && len < digits.length(); len++) {
            int cc = Integer.parseInt(digits.substring(0, len));
            if (callingCodes.contains(cc)) {
                Phonenumber.PhoneNumber p = number(cc, digits.substring(len));
                return p != null && util.isValidNumber(p);
            }
        }
        return false;
    }

    /**
     * The number libphonenumber would parse, built directly: its parser costs eight times its validator, and
     * the candidate is already reduced to digits here. Leading zeros of the national number (Italy) are kept.
     */
    private static Phonenumber.PhoneNumber number(int countryCode, String nsn) {
        if (countryCode <= 0 || nsn.isEmpty() || nsn.length() > 17) {
            return null;
        }
        Phonenumber.PhoneNumber p = new Phonenumber.PhoneNumber().setCountryCode(countryCode)
                .setNationalNumber(Long.parseLong(nsn));
        int zeros = 0;
        while (zeros < nsn.length() - 1 && nsn.charAt(zeros) == '0') {
            zeros++;
        }
        if (zeros > 0) {
            p.setItalianLeadingZero(true);
            p.setNumberOfLeadingZeros(zeros);
        }
        return p;
    }

    /**
     * Whether a national number could belong to a region with this trunk prefix: it starts with the prefix
     * (0 in most of Europe), or, where there is none or it is the NANP's 1, it has a national length. Most
     * digit runs in logs fail here without reaching the parser.
     */
    private static boolean plausible(String digits, String trunk, boolean parenthesised) {
        int len = digits.length();
        if (trunk.isEmpty()) {
            return len >= 8 && len <= 11;
        }
        if (trunk.equals("1")) {
            return (len == 10 && digits.charAt(0) >= '2') || (len == 11 && digits.charAt(0) == '1');
        }
        return digits.startsWith(trunk) || (parenthesised && len >= 10);
    }

    private static String digitsOf(String cand) {
        StringBuilder d = new StringBuilder(cand.length());
        for (int i = 0; i < cand.length(); i++) {
            if (Chars.digit(cand.charAt(i))) {
                d.append(cand.charAt(i));
            }
        }
        return d.toString();
    }

    /**
     * Three digit groups split by the same '-', '/' or '.' with a 4-digit year at one end (a date), or four
     * dot-separated groups of up to three digits (an IPv4 address or a version).
     */
    static boolean dateOrDottedQuad(String c) {
        int[] lens = new int[5];
        int groups = 0;
        int len = 0;
        char sep = 0;
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            if (Chars.digit(ch)) {
                len++;
            } else if (ch == '-' || ch == '/' || ch == '.') {
                if (sep != 0 && sep != ch || groups >= 4) {
                    return false;
                }
                sep = ch;
                lens[groups++] = len;
                len = 0;
            } else {
                return false;
            }
        }
        lens[groups++] = len;
        if (groups == 3) {
            return (lens[0] == 4 && lens[1] <= 2 && lens[2] <= 2) || (lens[0] <= 2 && lens[1] <= 2 && (lens[2] == 2 || lens[2] == 4));
        }
        return groups == 4 && sep == '.' && lens[0] <= 3 && lens[1] <= 3 && lens[2] <= 3 && lens[3] <= 3;
    }

    /**
     * Shapes that are something else: a date at the start (2024-12-05 09), an SSN or a registration number
     * (123-45-6789, 220-81-62517), a dotted quad with more after it (an IP with its prefix length), a version
     * (3.0.1, 20241117.1.0), '.' mixed with '/' or '-' (decimals and ratios).
     */
    static boolean notAPhoneShape(String c) {
        List<int[]> groups = new java.util.ArrayList<>();
        StringBuilder seps = new StringBuilder();
        int i = c.startsWith("+") || c.startsWith("(") ? 1 : 0;
        int g = i;
        for (; i <= c.length(); i++) {
            if (i == c.length() || !Chars.digit(c.charAt(i))) {
                if (i > g) {
                    groups.add(new int[] { g, i - g });
                    seps.append(i < c.length() ? c.charAt(i) : ' ');
                }
                g = i + 1;
            }
        }
        if (groups.size() >= 3) {
            int a = groups.get(0)[1];
            int b = groups.get(1)[1];
            int d = groups.get(2)[1];
            char s0 = seps.charAt(0);
            char s1 = seps.charAt(1);
            if (s0 == s1 && s0 != ' ' && ((a == 4 && b <= 2 && d <= 2) || (a <= 2 && b <= 2 && d == 4))) {
                return true; // a date, with whatever follows it
            }
            if (s0 == '-' && s1 == '-' && a == 3 && b == 2 && (d == 4 || d == 5)) {
                return true;
            }
        }
        if (groups.size() >= 4 && seps.charAt(0) == '.' && seps.charAt(1) == '.' && seps.charAt(2) == '.'
                && groups.get(0)[1] <= 3 && groups.get(1)[1] <= 3 && groups.get(2)[1] <= 3 && groups.get(3)[1] <= 3) {
            return true;
        }
        boolean dots = c.indexOf('.') >= 0;
        if (dots && (c.indexOf('/') >= 0 || c.indexOf('-') >= 0)) {
            return true;
        }
        if (dots && !c.startsWith("+")) {
            for (int[] grp : groups) {
                if (grp[1] == 1) {
                    return true; // 3.0.1: phone groups are not single digits
                }
            }
        }
        return false;
    }

    /** Digits split by a separator between two digits, or a parenthesised area code followed by more digits. */
    private static boolean grouped(String cand) {
        for (int i = 1; i + 1 < cand.length(); i++) {
            char c = cand.charAt(i);
            if ((c == ' ' || c == '-' || c == '.' || c == '/') && Chars.digit(cand.charAt(i - 1))
                    && Chars.digit(cand.charAt(i + 1))) {
                return true;
            }
        }
        int close = cand.indexOf(')');
        return cand.startsWith("(") && close > 1 && close < cand.length() - 2;
    }

    private static boolean keywordBefore(String s, int start) {
        return before(s, start, KEYWORDS, 24);
    }

    private static boolean before(String s, int start, String[] words, int window) {
        String before = s.substring(Math.max(0, start - window), start).toLowerCase(Locale.ROOT);
        for (String k : words) {
            int at = before.lastIndexOf(k);
            // a word, not part of one ("id" in "valid" does not count)
            if (at >= 0 && (at == 0 || !Character.isLetter(before.charAt(at - 1)) || !Character.isLetter(k.charAt(0)))) {
                return true;
            }
        }
        return false;
    }

    private static int countDigits(String s, int from, int to) {
        int d = 0;
        for (int i = from; i < to; i++) {
            if (Chars.digit(s.charAt(i))) {
                d++;
            }
        }
        return d;
    }
}
