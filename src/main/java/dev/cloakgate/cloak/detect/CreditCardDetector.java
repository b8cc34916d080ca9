package dev.cloakgate.cloak.detect;

import java.util.List;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;

/**
 * Payment card numbers: 13 to 19 digits, plain or grouped with single spaces, dashes or dots or wrapped over a
 * line (see {@link DigitRuns}), that pass Luhn and
 * start with an issuer range of a major network (Mastercard's 2-series included). Luhn alone would accept one
 * random digit run in ten. After a card word ({@link CardCue}), Luhn and 12 to 19 digits are enough: the word is
 * the evidence the issuer range gives elsewhere.
 */
public final class CreditCardDetector implements Detector {

    @Override
    public Category category() {
        return Category.CREDIT_CARD;
    }

    @Override
    public void detect(String s, List<Finding> out) {
        DigitRuns.scan(s, 12, 19, (start, end, digits) -> {
            if (!Luhn.valid(digits)) {
                return false;
            }
            // a card word before the whole run ("card number ...") stands for the issuer check: any range, 12 digits up
            if ((digits.length() >= 13 && issuer(digits))
                    || (DigitRuns.separatorEnd(s, end) < 0 && !CardCue.placeholder(digits)
                            && CardCue.CUE.introduces(s, start, -1))) {
                out.add(new Finding(Category.CREDIT_CARD, start, end));
                return true;
            }
            return false;
        });
    }

    @Override
    public boolean acceptsHinted(String value) {
        String d = value.replaceAll("[\\s.-]", "");
        return d.length() >= 12 && d.length() <= 19 && d.chars().allMatch(Character::isDigit) && Luhn.valid(d);
    }

    /** Issuer identification ranges with the lengths their networks issue. */
    static boolean issuer(CharSequence d) {
        int len = d.length();
        int p2 = prefix(d, 2);
        int p3 = prefix(d, 3);
        int p4 = prefix(d, 4);
        int p6 = prefix(d, 6);
        if (d.charAt(0) == '4') {
            return len == 13 || len == 16 || len == 19; // Visa
        }
        if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) {
            return len == 16; // Mastercard
        }
        if (p2 == 34 || p2 == 37) {
            return len == 15; // American Express
        }
        if (p4 == 6011 || p2 == 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) {
            return len >= 16 && len <= 19; // Discover
        }
        if (p4 >= 3528 && p4 <= 3589) {
            return len >= 16 && len <= 19; // JCB
        }
        if ((p3 >= 300 && p3 <= 305) || p2 == 36 || p2 == 38 || p2 == 39 || p4 == 3095) {
            return len >= 14 && len <= 19; // Diners Club
        }
        if (p2 == 62 || p2 == 81) {
            return len >= 16 && len <= 19; // UnionPay
        }
        if (p4 == 5018 || p4 == 5020 || p4 == 5038 || p4 == 5893 || p4 == 6304 || p4 == 6759 || p4 == 6761
                || p4 == 6762 || p4 == 6763) {
            return len >= 12 && len <= 19; // Maestro
        }
        return false;
    }

    private static int prefix(CharSequence d, int n) {
        if (d.length() < n) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < n; i++) {
            v = v * 10 + (d.charAt(i) - '0');
        }
        return v;
    }
}
