package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cloakgate.tenant.DetectionSettings;

/**
 * Issue 14: a number that a label or a verb introduces is what the words say it is.
 * <ul>
 * <li>PHONE: after "Phone:", "fax", "call me on", "Tél.", "тел." ... a national number in any country's grouping,
 * even where libphonenumber cannot place it in a configured region; and the dates, times, versions, amounts, ids,
 * addresses and ISBNs that sit near the same words are not.
 * <li>CREDIT_CARD: after "card", "card number", "CC", "Visa", "Karte", "tarjeta" ... every Luhn-valid run of 12
 * to 19 digits, whatever its issuer range (12-digit Maestro, 15-digit JCB from 2131 or 1800); outside such a
 * context a card still needs a known issuer and 13 to 19 digits. The card numbers are generated here with a Luhn
 * check digit, not taken from a list.
 * </ul>
 * Through the gateway's default detection, so precedence between categories is part of what is tested.
 */
class NumberCueTest {
    private static Detection detection;

    @BeforeAll
    static void build() throws Exception {
        detection = new DetectionFactory().build(DetectionSettings.defaults());
    }

    private static List<String> found(Category category, String text) {
        List<String> out = new ArrayList<>();
        for (Finding f : detection.find(text)) {
            if (f.category() == category) {
                out.add(text.substring(f.start(), f.end()));
            }
        }
        return out;
    }

    private static List<String> phones(String text) {
        return found(Category.PHONE, text);
    }

    private static List<String> cards(String text) {
        return found(Category.CREDIT_CARD, text);
    }

    private static void phone(String number, String text) {
        assertEquals(List.of(number), phones(text), text);
    }

    private static void card(String number, String text) {
        assertEquals(List.of(number), cards(text), text);
    }

    @Test
    void theIssuesMissesAfterALabelOrAVerb() {
        phone("60-56-85-91", "Phone: 60-56-85-91");
        phone("467 3395", "Phone: 467 3395");
        phone("(99) 645-791", "Tel. (99) 645-791, ask for the desk");
        phone("78 651 450", "He is not answering at 78 651 450 since Monday.");
        phone("9472 7916", "If the link fails, call me on 9472 7916.");
        phone("2345 6789", "fax 2345 6789");
        phone("555 0142", "mobile: 555 0142");
        phone("9123 4567", "Mob 9123 4567");
        phone("7712 3456", "reach me at 7712 3456 after six");
        phone("812 3456", "cell (work) 812 3456");
        phone("22 33 44 55", "WhatsApp 22 33 44 55");
        phone("4673395", "Phone no. 4673395");
    }

    @Test
    void numbersAlreadyFoundStaySo() {
        phone("030 1234567", "fax 030 1234567");
        phone("0612345678", "mobile: 0612345678");
        phone("+33 6 12 34 56 78", "Tel: +33 6 12 34 56 78");
    }

    @Test
    void theSameCuesInOtherLanguages() {
        phone("71 234 567", "Tél. : 71 234 567");
        phone("4567 8901", "llámame al 4567 8901");
        phone("8123 4567", "cellulare 8123 4567");
        phone("4004-1234", "ligue para 4004-1234");
        phone("912 345 67", "telemóvel: 912 345 67");
        phone("6123 4567", "bel me op 6123 4567");
        phone("22 45 67 89", "Handy: 22 45 67 89");
        phone("8 (921) 334-18-27", "Бригадир — Игорь Петрович, тел. 8 (921) 334-18-27.");
        phone("27210 88 412", "Τηλ.: 27210 88 412");
        phone("5123 4567", "Telefon 5123 4567");
    }

    @Test
    void aSecondNumberInTheSameLabelledList() {
        assertEquals(List.of("2345 6789", "2345 6790"), phones("Tel: 2345 6789 / 2345 6790"));
        assertEquals(List.of("2345 6789", "9123 4567"), phones("tel 2345 6789 or 9123 4567"));
    }

    @Test
    void theNextCellOfARowIsNotInTheList() {
        assertEquals(List.of("06 12 34 56 78"), phones("Tel:,06 12 34 56 78,4673395,2345 6789"));
    }

    @Test
    void withoutACueTodaysBehaviourHolds() {
        assertEquals(List.of(), phones("Order: 4673395"));
        assertEquals(List.of(), phones("Reference 467 3395 was closed"));
        assertEquals(List.of(), phones("sizes 78 651 450 in bytes"));
    }

    @Test
    void cueWordsUsedOtherwiseFindNothing() {
        for (String text : List.of(
                "call at 10:30", "call at 10:30:45 tomorrow", "call at 2024-05-01", "call on 2024-05-01 09:14",
                "call 12/05/2024", "call on 05.12.2024", "call 20240501", "call 0930-1030", "call 2019-2024",
                "version 1.2.3 at", "fax cover sheet 3 pages", "mobile app v2.14.1", "mobile 2.14.1",
                "mobile: 10.0.19045.3693", "Order: 4673395", "Phone order 4673395", "Call #4673395",
                "Call ID 48151623", "call about ticket 4815162342", "mobile: 1.234.567 users",
                "mobile 25.000.000 downloads", "phone 12345.67", "call costs $1,234.56", "mobile: €12 345",
                "call 192.168.100.200", "tel 10.0.0.1:8080", "call port 8080", "call :8443",
                "call number 978-3-16-148410-0", "call number 9783161484100", "Tel: 75008 Paris",
                "SMS code 123456", "SMS: 123456", "call 3.14159", "Tel: 123-45-6789",
                "phone 4111 1111 1111 1111", "Kaiser-Wilhelm-Ring 12 345 67", "mobile: 12 345 678 EUR",
                "mobile revenue 1 234 567 €", "call 45 67 89 %")) {
            assertEquals(List.of(), phones(text), text);
        }
    }

    @Test
    void theIssuesMissesRightAfterCardOrCardNumber() {
        card("5018 0375 9122", "Paid with card 5018 0375 9122 yesterday");
        card("501803759122", "card: 501803759122");
        card("213145802297131", "card number 213145802297131");
        card("1800 2736 4951 025", "Card No. 1800 2736 4951 025");
        card("2131-4580-2297-131", "credit card 2131-4580-2297-131");
    }

    @Test
    void anyIssuerRangeAndOtherWordsForACard() {
        card("990012345678905", "Kartennummer: 990012345678905");
        card("675930281463", "CC 675930281463");
        card("6759 3028 1463", "Maestro 6759 3028 1463");
        card("3618 5529 0314", "tarjeta de crédito 3618 5529 0314");
        card("712345678908", "carte bancaire n° 712345678908");
        card("712345678908", "cartão 712345678908");
        card("712345678908", "debit card on file: 712345678908");
        card("712345678908", "PAN=712345678908");
    }

    @Test
    void knownIssuersStillNeedNoContext() {
        card("4111 1111 1111 1111", "visa 4111 1111 1111 1111");
        card("378282246310005", "ref 378282246310005");
    }

    @Test
    void withoutContextTodaysBehaviourHolds() {
        // Luhn passes for one random digit run in ten: ids, orders and tickets must not become cards
        assertEquals(List.of(), cards("order 501803759122"));
        assertEquals(List.of(), cards("ticket 213145802297131 closed"));
        assertEquals(List.of(), cards("id 990012345678905"));
    }

    @Test
    void cardContextWithoutACardFindsNothing() {
        for (String text : List.of(
                "card 501803759123", "card number 213145802297132", "card ending 1234", "card issued 2024-05-01",
                "card 4111 1111 1111 1112", "card 5018 0375 9122 7", "gift card balance 501803759122",
                "card v1.2.3.4", "card 10.0.0.1", "card 0000 0000 0000")) {
            assertEquals(List.of(), cards(text), text);
        }
    }
}
