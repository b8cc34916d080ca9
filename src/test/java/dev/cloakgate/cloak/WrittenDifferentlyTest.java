package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.tenant.DetectionSettings;

/**
 * Values written differently (Unicode look-alikes, invisible characters, other separators, escapes, obfuscation,
 * a card split over JSON values) are cloaked like the plain ones, through the gateway's default detection; and
 * the prose, dates, versions and columns of figures that resemble them are not.
 */
class WrittenDifferentlyTest {
    private static Detection detection;
    private static Walker walker;
    private final ObjectMapper m = new ObjectMapper();

    @BeforeAll
    static void build() throws Exception {
        detection = new DetectionFactory().build(DetectionSettings.defaults());
        walker = new Walker(detection);
    }

    /** The value, inside a sentence, becomes one token of the category and nothing of it is left. */
    private static void cloaked(Category category, String value) {
        String text = "Ref: " + value + ". Thanks";
        Vault vault = new Vault(16);
        String out = walker.cloakString(text, null, vault, "crm", new Counts());
        assertEquals("Ref: [" + category + "_0]. Thanks", out, "for " + value);
        assertEquals(value, vault.resolve("[" + category + "_0]").value(), "the token stands for the value as written");
    }

    private static List<Finding> found(String text) {
        return detection.find(text);
    }

    @Test
    void cardNumbers() {
        cloaked(Category.CREDIT_CARD, "4242\u00a04242\u00a04242\u00a04242");
        cloaked(Category.CREDIT_CARD, "5200.8282.8282.8210");
        cloaked(Category.CREDIT_CARD, "4012\u20138888\u20138888\u20131881");
        cloaked(Category.CREDIT_CARD, "4012\u20148888\u20148888\u20141881");
        cloaked(Category.CREDIT_CARD, "4000\u200b0566\u200b5566\u200b5556");
        cloaked(Category.CREDIT_CARD, "4000\u200d0566\u20605566\ufeff5556");
        cloaked(Category.CREDIT_CARD, "\uff16\uff10\uff11\uff11 \uff10\uff10\uff10\uff19 \uff19\uff10\uff11\uff13 \uff19\uff14\uff12\uff14");
        cloaked(Category.CREDIT_CARD, "3714 496353 98431");
        cloaked(Category.CREDIT_CARD, "3714.496353.98431");
        cloaked(Category.CREDIT_CARD, "5105 1051\n0510 5100");
        cloaked(Category.CREDIT_CARD, "5105-1051-\r\n  0510-5100");
        cloaked(Category.CREDIT_CARD, "4111\n1111\n1111\n1111");
        cloaked(Category.CREDIT_CARD, "\u0664\u0661\u0661\u0661 \u0661\u0661\u0661\u0661 \u0661\u0661\u0661\u0661 \u0661\u0661\u0661\u0661");
    }

    @Test
    void emails() {
        cloaked(Category.EMAIL, "lea.martin\uff20example.org");
        cloaked(Category.EMAIL, "k.mensah\ufe6bexample.net");
        cloaked(Category.EMAIL, "sofia.rossi[at]example[dot]it");
        cloaked(Category.EMAIL, "sofia.rossi [AT] example [DOT] it");
        cloaked(Category.EMAIL, "tomas.novak (at) example (dot) cz");
        cloaked(Category.EMAIL, "tomas.novak{at}mail.example.cz");
        cloaked(Category.EMAIL, "ana.silva at example dot pt");
        cloaked(Category.EMAIL, "ana dot silva at example dot pt");
        cloaked(Category.EMAIL, "ana[dot]silva@example.pt");
        cloaked(Category.EMAIL, "ana.silva AT example dOt pt");
        cloaked(Category.EMAIL, "ana.silva@example[ . ]pt");
        cloaked(Category.EMAIL, "ana.silva @ example.pt");
        cloaked(Category.EMAIL, "nadia.haddad&#64;example.ma");
        cloaked(Category.EMAIL, "nadia.haddad%40example.ma");
        cloaked(Category.EMAIL, "nadia.haddad\uff20\uff45xample\uff0ema");
    }

    @Test
    void phoneNumbers() {
        cloaked(Category.PHONE, "\uff0b\uff14\uff14 \uff12\uff10 \uff17\uff19\uff14\uff16 \uff10\uff19\uff15\uff18");
        cloaked(Category.PHONE, "%2B1%20415%20555%200198");
        cloaked(Category.PHONE, "+33\u00a06\u00a098\u00a076\u00a054\u00a032");
        cloaked(Category.PHONE, "+33\u20096\u200998\u200976\u200954\u200932");
        cloaked(Category.PHONE, "+33\u20116\u201198\u201176\u201154\u201132");
    }

    @Test
    void socialSecurityNumbers() {
        cloaked(Category.US_SSN, "\u0662\u0661\u0669-\u0660\u0669-\u0669\u0669\u0669\u0669");
        cloaked(Category.US_SSN, "\u06f2\u06f1\u06f9-\u06f0\u06f9-\u06f9\u06f9\u06f9\u06f9");
        cloaked(Category.US_SSN, "078.05.1120");
        cloaked(Category.US_SSN, "234-56-\u200b7890");
        cloaked(Category.US_SSN, "345\u200b67\u200b8901");
        cloaked(Category.US_SSN, "345\u200c67\u200d8901");
        cloaked(Category.US_SSN, "\uff13\uff14\uff15-\uff16\uff17-\uff18\uff19\uff10\uff11");
    }

    @Test
    void ibans() {
        cloaked(Category.IBAN, "FR14\u200c2004\u200c1010\u200c0505\u200c0001\u200c3M02\u200c606");
        cloaked(Category.IBAN, "NL91\u00a0ABNA\u00a00417\u00a01643\u00a000");
        cloaked(Category.IBAN, "\uff24\uff25\uff18\uff19 3704 0044 0532 0130 00");
    }

    @Test
    void lookAlikesStayAsTheyAre() {
        for (String prose : List.of("meet me at home", "Sign up at example.com today", "look at the docs [at] the end",
                "thanks @maria.garcia for the review", "ping me @ standup", "see section 4.1.1 and 4.1111.1111",
                "versions 2019.2020.2021.2022 and 1.3.6.1.4.1.311.21.8", "price 1234.5678", "a[at]b", "arr[at]",
                "dot com at home dot", "\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669 items",
                "100%20sure", "123\u200b456\u200b789")) {
            List<Finding> f = found(prose);
            assertTrue(f.stream().noneMatch(x -> x.category() != Category.PERSON), prose + " -> " + f);
        }
        // a column of four-digit figures is not a card, however its first four lines add up
        String column = "2019\n4111\n1111\n1111\n1111\n2024\n";
        assertTrue(found(column).isEmpty(), column + " -> " + found(column));
    }

    @Test
    void aCardSplitOverJsonValuesBecomesOneTokenPerPart() throws Exception {
        JsonNode n = m.readTree("{\"payment\":{\"holder\":\"on file\",\"card_1\":\"4111 1111\",\"card_2\":\"1111 1111\","
                + "\"expires\":\"12/29\"},\"pan_parts\":[\"5555\",\"5555\",\"5555\",\"4444\"],"
                + "\"card\":[4012,8888,8888,1881],\"card_number\":{\"first\":\"5105\",\"second\":\"1051\",\"third\":\"0510\",\"fourth\":\"5100\"}}");
        Vault vault = new Vault(64);
        Counts counts = new Counts();
        walker.cloak(n, vault, "crm", counts);
        String out = n.toString();
        for (String part : List.of("\"4111 1111\"", "\"1111 1111\"", "\"5555\"", "\"4444\"", "4012", "1881", "\"5105\"",
                "\"0510\"", "\"5100\"")) {
            assertFalse(out.contains(part), part + " in " + out);
        }
        assertEquals("12/29", n.at("/payment/expires").asText());
        assertEquals(Integer.valueOf(4), counts.cloaked().get(Category.CREDIT_CARD), "each card counted once: " + out);
        assertEquals("4111 1111", vault.resolve(n.at("/payment/card_1").asText()).value(), "each part restores as written");
        assertEquals("1111 1111", vault.resolve(n.at("/payment/card_2").asText()).value());
        assertEquals("4444", vault.resolve(n.at("/pan_parts/3").asText()).value());
        assertEquals("0510", vault.resolve(n.at("/card_number/third").asText()).value(), "not a phone token: " + out);
        assertEquals("1881", vault.resolve(n.at("/card/3").asText()).value());
    }

    @Test
    void aCardSplitOverValuesOfJsonTextIsFoundAtEachPart() {
        String text = "{\"payments\":[{\"card_1\":\"4111 1111\",\"card_2\":\"1111 1111\"}],"
                + "\"pan_parts\":[[\"5555\",\"5555\",\"5555\",\"4444\"]],\"n\":\"\\u0034012\",\"card\":[4012,8888,8888,1881]}";
        Vault vault = new Vault(64);
        String out = walker.cloakString(text, null, vault, "crm", new Counts());
        for (String part : List.of("\"4111 1111\"", "\"1111 1111\"", "\"5555\"", "\"4444\"")) {
            assertFalse(out.contains(part), part + " in " + out);
        }
        assertTrue(out.contains("\"card_1\":\"[CREDIT_CARD_"), out);
        assertTrue(out.matches(".*\"card\":\\[\\[CREDIT_CARD_\\d+],\\[CREDIT_CARD_\\d+],\\[CREDIT_CARD_\\d+],\\[CREDIT_CARD_\\d+]]}"),
                "numbers under a card key, each replaced exactly: " + out);
    }

    @Test
    void arraysOfYearsIdsAndCodesAreNotCards() throws Exception {
        for (String json : List.of("{\"years\":[\"2019\",\"2020\",\"2021\",\"2022\"]}",
                "{\"ids\":[\"4111\",\"1111\",\"1111\",\"1111\",\"1111\"]}",
                "{\"ids\":[4111,1111,1111,1111]}",
                "{\"codes\":[\"4111\",\"1111\",\"1111\"],\"more\":\"1111\"}",
                "{\"pin\":\"4111\",\"zip\":\"1111\",\"ext\":\"1111\",\"floor\":\"1111\",\"note\":\"x\",\"room\":\"1111\"}",
                "{\"cards\":[\"4111111111111111\",\"5555555555554444\"]}")) {
            JsonNode n = m.readTree(json);
            Counts counts = new Counts();
            walker.cloak(n, new Vault(64), "crm", counts);
            if (json.contains("\"cards\"")) {
                assertEquals(Integer.valueOf(2), counts.cloaked().get(Category.CREDIT_CARD), n.toString());
            } else {
                assertEquals(m.readTree(json), n, "untouched: " + json);
            }
        }
    }
}
