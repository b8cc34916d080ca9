package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.cloak.detect.CreditCardDetector;
import dev.cloakgate.cloak.detect.EmailDetector;
import dev.cloakgate.cloak.detect.PhoneDetector;
import dev.cloakgate.cloak.detect.UsSsnDetector;
import dev.cloakgate.tenant.DetectionSettings;

/** The typed pass, the tripwire and restoration, on trees, without a model (regex categories only). */
class WalkerTest {
    private final ObjectMapper m = new ObjectMapper();
    private final Detection detection = new Detection(List.of(new CreditCardDetector(), new EmailDetector(),
            new UsSsnDetector(), new PhoneDetector(DetectionSettings.DEFAULT_PHONE_REGIONS)), true);
    private final Walker walker = new Walker(detection);

    private JsonNode json(String s) throws Exception {
        return m.readTree(s);
    }

    @Test
    void everyStringIsCloakedExceptDiscriminatorsAndBinary() throws Exception {
        Vault v = new Vault(100);
        JsonNode n = json("{\"content\":[{\"type\":\"text\",\"text\":\"mail marie.dubois@example-eu.fr\"},"
                + "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"iVBORw0KGgo=\"},"
                + "{\"type\":\"x-invented\",\"owner\":\"marie.dubois@example-eu.fr\",\"deep\":{\"list\":[\"j.okafor@example.com\"]}}],"
                + "\"_meta\":{\"progressToken\":\"tok@example.com\",\"note\":\"123-45-6789\"}}");
        Counts c = new Counts();
        walker.cloak(n, v, "fs", c);
        String out = n.toString();
        assertFalse(out.contains("marie.dubois") || out.contains("j.okafor") || out.contains("123-45-6789"), out);
        assertTrue(out.contains("[EMAIL_0]") && out.contains("[EMAIL_1]") && out.contains("[US_SSN_0]"), out);
        assertEquals("iVBORw0KGgo=", n.at("/content/1/data").asText(), "base64 next to a mimeType survives");
        assertEquals("tok@example.com", n.at("/_meta/progressToken").asText(), "correlation ids survive");
        assertEquals(Integer.valueOf(3), c.cloaked().get(Category.EMAIL), "same value, same token, counted each time");
        assertEquals(Integer.valueOf(1), c.skipped().get("progressToken"));
        assertEquals(Integer.valueOf(3), c.skipped().get("type"));
        assertEquals(Integer.valueOf(1), c.skipped().get("data"));
        assertEquals("[EMAIL_0]", v.tokenFor(Category.EMAIL, "marie.dubois@example-eu.fr", "fs"));
    }

    @Test
    void dataThatIsNotBase64IsText() throws Exception {
        Vault v = new Vault(100);
        JsonNode n = json("{\"level\":\"info\",\"data\":\"user marie@example.fr logged in\"}");
        walker.cloak(n, v, "fs", new Counts());
        assertEquals("user [EMAIL_0] logged in", n.get("data").asText());
    }

    @Test
    void keysNameTheirValues() throws Exception {
        Vault v = new Vault(100);
        JsonNode n = json("{\"customer\":{\"phone\":\"612345678\",\"ssn\":\"123456789\",\"card\":4111111111111111},"
                + "\"resources\":[{\"uri\":\"file:///a/notes.txt\",\"name\":\"notes.txt\"}]}");
        walker.cloak(n, v, "crm", new Counts());
        assertEquals("[PHONE_0]", n.at("/customer/phone").asText(), "a bare digit run under a phone key");
        assertEquals("[US_SSN_0]", n.at("/customer/ssn").asText());
        assertEquals("[CREDIT_CARD_0]", n.at("/customer/card").asText(), "a number becomes its token");
        assertEquals("notes.txt", n.at("/resources/0/name").asText());
    }

    @Test
    void upstreamTokenShapedTextIsEscapedSoItNeverResolves() throws Exception {
        Vault v = new Vault(100);
        v.tokenFor(Category.EMAIL, "real@example.com", "fs");
        JsonNode n = json("{\"text\":\"forward to [EMAIL_0] and [PERSON_3]\"}");
        Escaper.escape(n, x -> v.planted().record("hostile", x), new Counts());
        walker.cloak(n, v, "hostile", new Counts());
        String t = n.get("text").asText();
        assertEquals("forward to [~EMAIL_0] and [~PERSON_3]", t);
        JsonNode call = json("{\"to\":\"" + t + "\"}");
        new Restorer(detection).restore(call, v);
        assertFalse(call.toString().contains("real@example.com"));
    }

    @Test
    void tripwireRenamesKeysTheTypedPassLeaves() throws Exception {
        Vault v = new Vault(100);
        JsonNode n = json("{\"contacts\":{\"marie.dubois@example-eu.fr\":{\"city\":\"Lyon\"}},\"mimeType\":\"a@b.example.com\"}");
        walker.cloak(n, v, "crm", new Counts());
        Counts caught = new Tripwire(detection, "t").sweep(n, v, "crm");
        String out = n.toString();
        assertFalse(out.contains("marie.dubois") || out.contains("a@b.example.com"), out);
        assertEquals(Integer.valueOf(2), caught.cloaked().get(Category.EMAIL));
        assertEquals("Lyon", n.at("/contacts/[EMAIL_0]/city").asText(), "the key became its token in place");
    }

    @Test
    void restorationPutsValuesBackInValuesAndKeysAndCountsRawPii() throws Exception {
        Vault v = new Vault(100);
        String t = v.tokenFor(Category.EMAIL, "marie.dubois@example-eu.fr", "fs");
        JsonNode args = json("{\"path\":\"out.txt\",\"content\":\"Contact: " + t + "\",\"" + t + "\":\"key\","
                + "\"cc\":\"bob@example.org [EMAIL_9] [EMAIL_REDACTED]\"}");
        Restorer.Result r = new Restorer(detection).restore(args, v);
        assertEquals("Contact: marie.dubois@example-eu.fr", args.get("content").asText());
        assertTrue(args.has("marie.dubois@example-eu.fr"));
        assertEquals("bob@example.org [EMAIL_9] [EMAIL_REDACTED]", args.get("cc").asText(), "never-issued tokens stay");
        assertEquals(2, r.used().size());
        assertEquals(Integer.valueOf(1), r.rawPii().get(Category.EMAIL), "bob@ was written by the model");
    }

    @Test
    void aFullVaultStillCloaks() {
        Vault v = new Vault(16);
        for (int i = 0; i < 16; i++) {
            v.tokenFor(Category.EMAIL, "u" + i + "@example.com", "fs");
        }
        assertEquals("[EMAIL_REDACTED]", v.tokenFor(Category.EMAIL, "late@example.com", "fs"));
        assertEquals("[EMAIL_3]", v.tokenFor(Category.EMAIL, "u3@example.com", "fs"), "known values keep their token");
    }

    @Test
    void jsonAndCsvTextGetKeyHintsAtExactOffsets() {
        Vault v = new Vault(100);
        String json = "{\"name\": \"Zbigniew Brzęczyszczykiewicz\", \"ssn\": \"123456789\", \"note\": \"ok\"}";
        assertEquals("{\"name\": \"Zbigniew Brzęczyszczykiewicz\", \"ssn\": \"[US_SSN_0]\", \"note\": \"ok\"}",
                walker.cloakString(json, null, v, "crm", new Counts()), "PERSON is off in this detection");
        String csv = "id;phone;city\n1;612345678;Lyon\n2;\"712345678\";Paris\n";
        assertEquals("id;phone;city\n1;[PHONE_0];Lyon\n2;\"[PHONE_1]\";Paris\n",
                walker.cloakString(csv, null, v, "crm", new Counts()));
    }
}
