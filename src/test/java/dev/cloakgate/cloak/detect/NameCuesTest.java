package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.text.Normalizer;

import org.junit.jupiter.api.Test;

/** The cue pass asks the normaliser only about words that reach the combining marks. */
class NameCuesTest {

    @Test
    void textBeforeTheCombiningMarksIsAlreadyComposed() {
        // composition joins a character to the one before it; below U+0300 no character and no pair changes
        for (char c = 0; c < 0x300; c++) {
            String one = String.valueOf(c);
            assertTrue(NameCues.belowCombiningMarks(one));
            assertTrue(Normalizer.isNormalized(one, Normalizer.Form.NFC), Integer.toHexString(c));
            for (char d = 0; d < 0x300; d++) {
                String two = one + d;
                if (!Normalizer.isNormalized(two, Normalizer.Form.NFC)) {
                    throw new AssertionError(Integer.toHexString(c) + " " + Integer.toHexString(d));
                }
            }
        }
        assertFalse(NameCues.belowCombiningMarks("Gudmundsdo\u0301ttir"));
        assertFalse(Normalizer.isNormalized("gudmundsdo\u0301ttir", Normalizer.Form.NFC));
    }
}
