package dev.cloakgate.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EcmaNumbersTest {

    /** RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical text (NaN and Infinity refused below). */
    @ParameterizedTest
    @CsvSource({
        "0000000000000000, 0",
        "8000000000000000, 0",
        "0000000000000001, 5e-324",
        "8000000000000001, -5e-324",
        "7fefffffffffffff, 1.7976931348623157e+308",
        "ffefffffffffffff, -1.7976931348623157e+308",
        "4340000000000000, 9007199254740992",
        "c340000000000000, -9007199254740992",
        "4430000000000000, 295147905179352830000",
        "44b52d02c7e14af5, 9.999999999999997e+22",
        "44b52d02c7e14af6, 1e+23",
        "44b52d02c7e14af7, 1.0000000000000001e+23",
        "444b1ae4d6e2ef4e, 999999999999999700000",
        "444b1ae4d6e2ef4f, 999999999999999900000",
        "444b1ae4d6e2ef50, 1e+21",
        "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
        "3eb0c6f7a0b5ed8d, 0.000001",
        "41b3de4355555553, 333333333.3333332",
        "41b3de4355555554, 333333333.33333325",
        "41b3de4355555555, 333333333.3333333",
        "41b3de4355555556, 333333333.3333334",
        "41b3de4355555557, 333333333.33333343",
        "becbf647612f3696, -0.0000033333333333333333",
        "43143ff3c1cb0959, 1424953923781206.2",
    })
    void rfc8785AppendixB(String ieeeHex, String expected) {
        double value = Double.longBitsToDouble(Long.parseUnsignedLong(ieeeHex, 16));
        assertEquals(expected, EcmaNumbers.format(value));
    }

    @Test
    void refusesNanAndInfinities() {
        // Appendix B's 7fffffffffffffff and 7ff0000000000000 rows: no JSON form
        assertThrows(IllegalArgumentException.class,
                () -> EcmaNumbers.format(Double.longBitsToDouble(0x7fffffffffffffffL)));
        assertThrows(IllegalArgumentException.class,
                () -> EcmaNumbers.format(Double.longBitsToDouble(0x7ff0000000000000L)));
        assertThrows(IllegalArgumentException.class, () -> EcmaNumbers.format(Double.NEGATIVE_INFINITY));
    }

    @ParameterizedTest
    @CsvSource({
        "1e23, 1e+23",
        "5e-324, 5e-324",
        "1.7976931348623157e308, 1.7976931348623157e+308",
        "1e21, 1e+21",
        "1e20, 100000000000000000000",
        "1e-7, 1e-7",
        "1e-6, 0.000001",
        "123456789012345680000, 123456789012345680000",
        "-0.0, 0",
        "9007199254740992, 9007199254740992",
        "9007199254740993, 9007199254740992", // 2^53+1 is read as its nearest double
        "4.50, 4.5",
        "2e-3, 0.002",
        "1E30, 1e+30",
        "0.000000000000000000000000001, 1e-27",
        "100, 100",
        "1.5, 1.5",
        "-1.5e-10, -1.5e-10",
        "2.2250738585072014e-308, 2.2250738585072014e-308",
        "0.1, 0.1",
    })
    void ownVectors(String literal, String expected) {
        assertEquals(expected, EcmaNumbers.format(Double.parseDouble(literal)));
    }

    @Test
    void sumOfPointOneAndPointTwo() {
        assertEquals("0.30000000000000004", EcmaNumbers.format(0.1 + 0.2));
    }

    @Test
    void jdkToStringIsNotTheCanonicalForm() {
        // the reason this formatter exists: JDK 17 prints 1e23 with 16 digits
        assertNotEquals("1e+23", Double.toString(1e23));
        assertEquals("1e+23", EcmaNumbers.format(1e23));
    }

    /**
     * Random doubles over the whole range: the text reads back as the same double, and no decimal with one
     * digit fewer does. That second check looks at the floor and ceiling at the shorter precision: the
     * decimals that read back as a double form one interval around it, so if any shorter one did, one of
     * those two would.
     */
    @Test
    void randomDoublesRoundTripWithShortestDigits() {
        SplittableRandom random = new SplittableRandom(8785);
        for (int i = 0; i < 4000; i++) {
            double value = i % 2 == 0
                    ? Double.longBitsToDouble(random.nextLong()) // any bit pattern: all exponents, subnormals
                    : random.nextDouble() * Math.pow(10, random.nextInt(-30, 30)); // everyday magnitudes
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                continue;
            }
            String text = EcmaNumbers.format(value);
            assertEquals(value == 0 ? 0.0 : value, Double.parseDouble(text), text);
            if (value == 0) {
                continue;
            }
            int digits = significantDigits(text);
            if (digits > 1) {
                BigDecimal exact = new BigDecimal(Math.abs(value));
                for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
                    BigDecimal shorter = exact.round(new MathContext(digits - 1, mode));
                    assertNotEquals(Math.abs(value), Double.parseDouble(shorter.toString()),
                            "shorter " + shorter + " also reads back as " + text);
                }
            }
            assertFalse(text.endsWith(".0") || text.contains("E") || text.startsWith("+"), text);
        }
    }

    private static int significantDigits(String text) {
        String mantissa = text.replaceFirst("^-", "").replaceFirst("e.*$", "").replace(".", "");
        return mantissa.replaceFirst("^0+", "").replaceFirst("0+$", "").length();
    }
}
