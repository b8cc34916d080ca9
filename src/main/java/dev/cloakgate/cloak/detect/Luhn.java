package dev.cloakgate.cloak.detect;

/** The Luhn (mod 10) check digit test over the digits of a string, ignoring separators. */
final class Luhn {
    private Luhn() {
    }

    static boolean valid(CharSequence digits) {
        int sum = 0;
        boolean dbl = false;
        int n = 0;
        for (int i = digits.length() - 1; i >= 0; i--) {
            char c = digits.charAt(i);
            if (!Chars.digit(c)) {
                continue;
            }
            int d = c - '0';
            if (dbl) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            dbl = !dbl;
            n++;
        }
        return n > 0 && sum % 10 == 0;
    }
}
