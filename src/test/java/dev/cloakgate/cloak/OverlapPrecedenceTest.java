package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.detect.CreditCardDetector;
import dev.cloakgate.cloak.detect.IbanDetector;

/** Which finding wins when two validated detectors claim overlapping text. */
class OverlapPrecedenceTest {

    private final Detection detection = new Detection(List.of(new CreditCardDetector(), new IbanDetector()), false);

    @Test
    void anIbanWhoseTailIsALuhnValidCardNumberIsCloakedWholeAsAnIban() {
        // 4010 9281 5901 3962 459 passes Luhn by itself (about one digit run in ten does): the card inside must
        // not win, or the country, check digits and bank code stay in the clear beside a CREDIT_CARD token
        String text = "Pay to IBAN FR30 1234 4010 9281 5901 3962 459 by Friday";
        List<Finding> found = detection.find(text);
        assertEquals(1, found.size(), found.toString());
        Finding f = found.get(0);
        assertEquals(Category.IBAN, f.category());
        assertEquals("FR30 1234 4010 9281 5901 3962 459", text.substring(f.start(), f.end()));
    }

    @Test
    void aCardNumberAloneIsStillACard() {
        String text = "card 4010 9281 5901 3962 459 declined";
        List<Finding> found = detection.find(text);
        assertEquals(1, found.size(), found.toString());
        assertEquals(Category.CREDIT_CARD, found.get(0).category());
    }
}
