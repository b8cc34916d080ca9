package dev.cloakgate.crypto;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats a double the way ECMAScript's Number::toString does (ECMA-262 Number::toString, radix 10), which
 * RFC 8785 section 3.2.2.3 makes the canonical number form. JDK 17's {@link Double#toString} is not that form:
 * it does not always pick the shortest digits (it prints 1e23 as 9.999999999999999E22) and lays them out
 * differently, so the digits are found here from the exact binary value.
 */
public final class EcmaNumbers {

    private EcmaNumbers() {
    }

    /** The canonical text of {@code value}; NaN and the infinities have none in JSON and are refused. */
    public static String format(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("JSON has no number for " + value);
        }
        if (value == 0) {
            return "0"; // -0 too: ECMAScript prints both zeros as "0"
        }
        Digits digits = shortestDigits(Math.abs(value));
        String body = layout(digits.digits(), digits.pointPosition());
        return value < 0 ? "-" + body : body;
    }

    /** The decimal value of {@link #format}'s text for a positive finite double. */
    static BigDecimal shortestDecimal(double value) {
        Digits d = shortestDigits(value);
        return new BigDecimal(new java.math.BigInteger(d.digits()), d.digits().length() - d.pointPosition());
    }

    /**
     * The shortest decimal digits that read back as {@code value}, as ECMAScript asks for them: the fewest
     * digits k, then the candidate closest to the exact value, then an even last digit. Returned as the digit
     * string s (no trailing zeros) and n, where the value is 0.s × 10^n.
     */
    static Digits shortestDigits(double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("needs a positive finite double: " + value);
        }
        BigDecimal exact = new BigDecimal(value);
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal best = null;
            // The decimals of this length that read back as value form one run around it (the rounding
            // interval); its ends nearest the value are the floor and the ceiling at this precision. The
            // interval is lopsided at powers of two, so the nearest one alone could miss a shorter form.
            for (RoundingMode mode : new RoundingMode[] {RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING}) {
                BigDecimal candidate = exact.round(new MathContext(precision, mode));
                if (Double.parseDouble(candidate.toString()) != value) {
                    continue;
                }
                if (best == null || closer(candidate, best, exact)) {
                    best = candidate;
                }
            }
            if (best != null) {
                BigDecimal stripped = best.stripTrailingZeros();
                String unscaled = stripped.unscaledValue().toString();
                // value = unscaled × 10^-scale = 0.unscaled × 10^(digits - scale)
                return new Digits(unscaled, unscaled.length() - stripped.scale());
            }
        }
        // 17 significant digits always identify a double uniquely; reaching here means a broken platform.
        throw new IllegalStateException("no round-tripping digits for " + value);
    }

    private static boolean closer(BigDecimal candidate, BigDecimal best, BigDecimal exact) {
        int byDistance = candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs());
        if (byDistance != 0) {
            return byDistance < 0;
        }
        // a tie between two distinct candidates: ECMAScript keeps the one with the even last digit
        BigDecimal c = candidate.stripTrailingZeros();
        return !c.equals(best.stripTrailingZeros()) && c.unscaledValue().testBit(0) == false;
    }

    /** ECMA-262 Number::toString steps for digits s (length k) and point position n. */
    private static String layout(String s, int n) {
        int k = s.length();
        StringBuilder out = new StringBuilder(k + 8);
        if (k <= n && n <= 21) {
            // an integer: the digits, then n - k zeros
            out.append(s);
            out.append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(s, 0, n).append('.').append(s, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(s);
        } else {
            int exponent = n - 1;
            out.append(s.charAt(0));
            if (k > 1) {
                out.append('.').append(s, 1, k);
            }
            out.append('e').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
        }
        return out.toString();
    }

    /** Decimal digits (no leading or trailing zeros) and the position n of the decimal point: 0.digits × 10^n. */
    record Digits(String digits, int pointPosition) {
    }
}
