package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.detect.CreditCardDetector;
import dev.cloakgate.cloak.detect.Detector;
import dev.cloakgate.cloak.detect.EmailDetector;
import dev.cloakgate.cloak.detect.IbanDetector;
import dev.cloakgate.cloak.detect.IpAddressDetector;
import dev.cloakgate.cloak.detect.PhoneDetector;
import dev.cloakgate.cloak.detect.SecretDetector;
import dev.cloakgate.cloak.detect.UsSsnDetector;
import dev.cloakgate.tenant.DetectionSettings;

/** Each detector: what its validator accepts, what it must refuse, and where a finding starts and ends. */
class DetectorsTest {

    private static List<String> found(Detector d, String text) {
        List<Finding> out = new ArrayList<>();
        d.detect(text, out);
        List<String> values = new ArrayList<>();
        for (Finding f : out) {
            values.add(text.substring(f.start(), f.end()));
        }
        return values;
    }

    @Test
    void emails() {
        Detector d = new EmailDetector();
        assertEquals(List.of("marie.dubois@example-eu.fr"), found(d, "Contact: marie.dubois@example-eu.fr."));
        assertEquals(List.of("a+tag@sub.example.co.uk", "x_y@b.io"), found(d, "<a+tag@sub.example.co.uk>, x_y@b.io"));
        assertEquals(List.of("müller@exämple.de"), found(d, "mail müller@exämple.de"));
        assertEquals(List.of(), found(d, "user@localhost and @handle and a@b.c and foo@-bad.com"));
        assertEquals(List.of("jo@example.fr-03.pdf"), found(d, "invoices/jo@example.fr-03.pdf"));
    }

    @Test
    void creditCardsNeedLuhnAndAnIssuer() {
        Detector d = new CreditCardDetector();
        assertEquals(List.of("4111 1111 1111 1111", "5555-5555-5555-4444", "378282246310005"),
                found(d, "visa 4111 1111 1111 1111, mc 5555-5555-5555-4444, amex 378282246310005"));
        // Mastercard 2-series, Discover, JCB, Diners, UnionPay
        assertEquals(List.of("2223003122003222", "6011111111111117", "3530111333300000", "36227206271667", "6200000000000005"),
                found(d, "2223003122003222 6011111111111117 3530111333300000 36227206271667 6200000000000005"));
        assertEquals(List.of(), found(d, "4111 1111 1111 1112"), "Luhn fails");
        assertEquals(List.of(), found(d, "9999999999999995"), "Luhn passes but no issuer starts with 9");
        assertEquals(List.of(), found(d, "order 41111111111111110 and ab4111111111111111"), "too long, and glued to letters");
    }

    @Test
    void ibansNeedTheirCountrysLengthAndMod97() {
        Detector d = new IbanDetector();
        assertEquals(List.of("DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "FR1420041010050500013M02606"),
                found(d, "DE89 3704 0044 0532 0130 00; GB82WEST12345698765432; FR1420041010050500013M02606"));
        assertEquals(List.of(), found(d, "DE89 3704 0044 0532 0130 01"), "mod-97 fails");
        assertEquals(List.of(), found(d, "DE89370400440532013"), "too short for DE");
        assertEquals(List.of("NL91ABNA0417164300"), found(d, "nl: NL91ABNA0417164300."));
    }

    @Test
    void ssnsRejectTheRangesNeverIssued() {
        Detector d = new UsSsnDetector();
        assertEquals(List.of("123-45-6789", "078 05 1120"), found(d, "ssn 123-45-6789 and 078 05 1120"));
        assertEquals(List.of(), found(d, "000-12-3456 666-12-3456 900-12-3456 123-00-4567 123-45-0000"));
        assertEquals(List.of(), found(d, "123456789 and 2024-01-15 and 1123-45-6789"));
    }

    @Test
    void ipAddressesAreParsedNotShaped() {
        Detector d = new IpAddressDetector();
        assertEquals(List.of("203.0.113.42", "10.0.0.1"), found(d, "from 203.0.113.42 to 10.0.0.1:8080"));
        assertEquals(List.of("2001:db8::8a2e:370:7334", "::1", "::ffff:192.0.2.128", "fe80:0:0:0:202:b3ff:fe1e:8329"),
                found(d, "v6 2001:db8::8a2e:370:7334 lo ::1 mapped ::ffff:192.0.2.128 full fe80:0:0:0:202:b3ff:fe1e:8329."));
        assertEquals(List.of(), found(d, "256.1.1.1 1.2.3 01.2.3.4 1.2.3.4.5 version 1.2.3.4 v10.0.0.1"));
        assertEquals(List.of(), found(d, "at 12:30:45, mac 00:1A:2B:3C:4D:5E, std::vector, a::b, sha deadbeef"));
    }

    @Test
    void phonesInternationalAndNational() {
        Detector d = new PhoneDetector(DetectionSettings.DEFAULT_PHONE_REGIONS);
        assertEquals(List.of("+33 6 12 34 56 78", "+1 415-555-2671", "0044 20 7946 0958"),
                found(d, "call +33 6 12 34 56 78 or +1 415-555-2671 or 0044 20 7946 0958"));
        assertEquals(List.of("06 12 34 56 78", "(020) 7946 0958", "030 1234567"),
                found(d, "portable 06 12 34 56 78, office (020) 7946 0958, Berlin 030 1234567"));
        assertEquals(List.of("0612345678"), found(d, "tel: 0612345678"), "ungrouped national needs a keyword");
        assertEquals(List.of(), found(d, "ticket 4815162342, order #20251130, date 2024-11-30, ip 192.168.100.200"));
    }

    @Test
    void secretsByIssuerFormat() {
        Detector d = new SecretDetector();
        String jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        String text = "AKIAQ3EGRE7NX6TRZ4MB AKIAIOSFODNN7EXAMPLE ghp_0123456789abcdefghijklmnopqrstuvwxyz "
                + "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx " + jwt
                + " sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 AIzaSyA1234567890abcdefghijklmnopqrstuv "
                + "sk_live_51H8abcdefghijklmnop";
        List<String> f = found(d, text);
        assertTrue(f.contains("AKIAQ3EGRE7NX6TRZ4MB"), f.toString());
        assertFalse(f.contains("AKIAIOSFODNN7EXAMPLE"), "AWS's documented placeholder is not a secret: " + f);
        assertTrue(f.contains("ghp_0123456789abcdefghijklmnopqrstuvwxyz"), f.toString());
        assertTrue(f.contains(jwt), f.toString());
        assertTrue(f.stream().anyMatch(s -> s.startsWith("xoxb-")), f.toString());
        assertTrue(f.stream().anyMatch(s -> s.startsWith("sk-ant-api03-")), f.toString());
        assertTrue(f.contains("AIzaSyA1234567890abcdefghijklmnopqrstuv"), f.toString());
        assertTrue(f.contains("sk_live_51H8abcdefghijklmnop"), f.toString());
        String pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----";
        assertEquals(List.of(pem), found(d, "key:\n" + pem + "\n"));
        // a JWT-shaped string whose header is not JSON, and hex digests, are not secrets
        assertEquals(List.of(), found(d, "eyJub3Rqc29uOiBoZWxsbyB3b3JsZA.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc "
                + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    }

    @Test
    void overlapsKeepTheValidatedCategory() {
        List<Finding> all = new ArrayList<>(List.of(new Finding(Category.PERSON, 0, 5), new Finding(Category.EMAIL, 0, 20),
                new Finding(Category.PHONE, 25, 35), new Finding(Category.CREDIT_CARD, 22, 41)));
        assertEquals(List.of(new Finding(Category.EMAIL, 0, 20), new Finding(Category.CREDIT_CARD, 22, 41)),
                Detection.resolve(all));
    }
}
