package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.cloak.detect.Detector;
import dev.cloakgate.cloak.detect.EmailDetector;
import dev.cloakgate.cloak.detect.UsSsnDetector;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.tenant.TokenScope;
import dev.cloakgate.testing.Json;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Issue 14: a name found once is cloaked wherever it appears again toward the agent, in the other fields of its
 * message and in later messages of the session (progress, log notifications, errors), whatever the PERSON model
 * makes of those texts. Here PERSON comes from key hints only (a PERSON detector that finds nothing in text: the
 * model's worst case), so every name cloaked in running text below was cloaked by propagation.
 */
class PropagationTest {
    private static final Pattern PERSON_TOKEN = Pattern.compile("\\[PERSON_\\d+]");
    private static final String NAME = "El\u00ednborg Gu\u00f0mundsd\u00f3ttir";

    /** PERSON with no model: nothing found in text, a value under a name key accepted when it is capitalised. */
    private static final Detector NO_MODEL = new Detector() {
        @Override
        public Category category() {
            return Category.PERSON;
        }

        @Override
        public void detect(String text, List<Finding> out) {
            // finds nothing: the model's worst case
        }

        @Override
        public boolean acceptsHinted(String value) {
            return !value.isEmpty() && Character.isUpperCase(value.charAt(0));
        }
    };

    private final Cloak cloak = new Cloaking("t", new Detection(List.of(new EmailDetector(), new UsSsnDetector(), NO_MODEL),
            true), TokenScope.SESSION, 1000, new SimpleMeterRegistry(), Evidence.NONE).session("s");

    private ObjectNode toAgent(String method, String json) {
        ObjectNode o = Json.obj(json);
        cloak.toAgent("crm", method, o);
        return o;
    }

    private static String token(String s) {
        Matcher m = PERSON_TOKEN.matcher(s);
        assertTrue(m.find(), s);
        return m.group();
    }

    @Test
    void aNameFoundInOneFieldIsCloakedInEveryOtherFieldAndKeyOfTheMessage() {
        ObjectNode r = toAgent("tools/call", "{\"content\":[{\"type\":\"text\",\"text\":\"halfway through " + NAME
                + " (step 2 of 4); " + "El\u00ednborg said so\"}],\"structuredContent\":{\"customer\":{\"name\":\"" + NAME
                + "\"},\"byFamily\":{\"Gu\u00f0mundsd\u00f3ttir\":{\"invoices\":2}},\"note\":\"GU\u00d0MUNDSD\u00d3TTIR, "
                + "Duboisville\"}}");
        String all = Json.write(r);
        assertFalse(all.contains("El\u00ednborg") || all.contains("Gu\u00f0mundsd\u00f3ttir")
                || all.contains("GU\u00d0MUNDSD\u00d3TTIR"), all);
        String token = r.at("/structuredContent/customer/name").asText();
        assertEquals(token, token(r.at("/content/0/text").asText()), "the same name, the same token");
        assertTrue(r.at("/content/0/text").asText().startsWith("halfway through " + token + " (step 2 of 4); [PERSON_"));
        assertTrue(r.at("/structuredContent/note").asText().endsWith(", Duboisville"), all);
        assertEquals("text", r.at("/content/0/type").asText(), "discriminators are never touched");
    }

    @Test
    void aNameTheSessionFoundIsCloakedInLaterProgressLogsAndErrors() {
        ObjectNode first = toAgent("tools/call", "{\"structuredContent\":{\"people\":[{\"name\":\"" + NAME
                + "\"},{\"name\":\"Marie Dubois\"}]}}");
        String elinborg = first.at("/structuredContent/people/0/name").asText();
        String marie = first.at("/structuredContent/people/1/name").asText();

        ObjectNode progress = toAgent("notifications/progress", "{\"progressToken\":\"pt-1\",\"progress\":2,\"total\":4,"
                + "\"message\":\"halfway through " + NAME + " (step 2 of 4)\"}");
        assertEquals("halfway through " + elinborg + " (step 2 of 4)", progress.path("message").asText());
        assertEquals("pt-1", progress.path("progressToken").asText());

        ObjectNode error = toAgent("tools/call", "{\"code\":-32000,\"message\":\"no invoice for ab@example.com / " + NAME
                + " / SSN 123-45-6789\"}");
        assertTrue(error.path("message").asText().matches("no invoice for \\[EMAIL_\\d+] / \\Q" + elinborg
                + "\\E / SSN \\[US_SSN_\\d+]"), error.toString());

        ObjectNode log = toAgent("notifications/message", "{\"level\":\"warning\",\"logger\":\"crm\",\"data\":{\"text\":"
                + "\"Gu\u00f0mundsd\u00f3ttir has not paid. DUBOIS called; mdubois logged in, then marie.dubois. El\u00ednborg"
                + " and Marie wrote. Will Dubois-Martin? Duboisville.\"}}");
        String text = log.at("/data/text").asText();
        // the family name alone, in capitals, the logins; a given name alone is not propagated beyond its message
        assertTrue(text.matches("\\[PERSON_\\d+] has not paid\\. \\[PERSON_\\d+] called; \\[PERSON_\\d+] logged in, then"
                + " \\[PERSON_\\d+]\\. El\u00ednborg and Marie wrote\\. Will \\[PERSON_\\d+]-Martin\\? Duboisville\\."), text);
        ObjectNode again = toAgent("notifications/message", "{\"level\":\"info\",\"data\":\"Marie Dubois, again\"}");
        assertEquals(marie + ", again", again.path("data").asText(), "the same token as when the session found it");
    }

    @Test
    void everyPropagatedTokenRestoresToExactlyWhatTheUpstreamWrote() {
        toAgent("tools/call", "{\"customer\":{\"name\":\"" + NAME + "\"}}");
        String written = "GU\u00d0MUNDSD\u00d3TTIR / El\u00ed\u00adnborg Gu\u00f0mundsd\u00f3ttir / El\u00ednborg"
                + "  Gu\u00f0mundsd\u00f3ttir";
        ObjectNode later = toAgent("notifications/message", "{\"level\":\"info\",\"data\":"
                + Json.write(Json.MAPPER.valueToTree(written)) + "}");
        String shown = later.path("data").asText();
        // a soft hyphen inside the given name does not hide the name: it is read as the model reads it
        assertFalse(shown.contains("Gu\u00f0mundsd\u00f3ttir") || shown.contains("GU\u00d0MUNDSD\u00d3TTIR")
                || shown.contains("nborg"), shown);
        ObjectNode back = Json.obj("{\"name\":\"x\",\"arguments\":{\"note\":" + Json.write(Json.MAPPER.valueToTree(shown))
                + "}}");
        cloak.toUpstream("crm", "x", back);
        // the capitals as written, the soft hyphen where it was, a double space kept: each its own token
        assertEquals(written, back.at("/arguments/note").asText());
    }

    @Test
    void aNameWrittenDecomposedIsTheSameName() {
        toAgent("tools/call", "{\"customer\":{\"name\":\"" + NAME + "\"}}");
        String nfd = java.text.Normalizer.normalize(NAME, java.text.Normalizer.Form.NFD);
        ObjectNode later = toAgent("notifications/progress", "{\"progressToken\":1,\"message\":\"halfway through " + nfd
                + "\"}");
        assertTrue(later.path("message").asText().matches("halfway through \\[PERSON_\\d+]"), later.toString());
    }

    /**
     * A name whose capitals are a category's ("Card Person") must not take a piece of a token: neither of one the
     * gateway issued nor of a shape the upstream wrote, which still goes back to the upstream as it wrote it.
     */
    @Test
    void tokenShapesAreNeverPartOfAPropagatedName() {
        String shapes = "[PERSON_0] and [CREDIT_CARD_1] and [~EMAIL_2] and [PERSON_REDACTED]";
        String escaped = "\\[~PERSON_0] and \\[~CREDIT_CARD_1] and \\[~~EMAIL_2] and \\[~PERSON_REDACTED]";
        ObjectNode first = toAgent("tools/call", "{\"customer\":{\"name\":\"Card Person\"},\"note\":\"" + shapes
                + ", CARD\"}");
        assertTrue(first.path("note").asText().matches(escaped + ", \\[PERSON_\\d+]"), first.toString());
        ObjectNode r = toAgent("notifications/message", "{\"level\":\"info\",\"data\":\"" + shapes
                + ", CARD PERSON\"}");
        String data = r.path("data").asText();
        assertTrue(data.matches(escaped + ", \\[PERSON_\\d+]"), data);
        ObjectNode back = Json.obj("{\"name\":\"x\",\"arguments\":{\"note\":" + Json.write(Json.MAPPER.valueToTree(data))
                + "}}");
        cloak.toUpstream("crm", "x", back);
        assertEquals(shapes + ", CARD PERSON", back.at("/arguments/note").asText());
    }

    /** One word under "name" is as often a product or a team: cloaked where it is, not elsewhere in the message. */
    @Test
    void aSingleWordFoundOnlyUnderANameKeyIsNotPropagated() {
        ObjectNode r = toAgent("tools/call", "{\"item\":{\"name\":\"Widget\"},\"text\":\"The Widget ships in May.\"}");
        assertTrue(r.at("/item/name").asText().startsWith("[PERSON_"), r.toString());
        assertEquals("The Widget ships in May.", r.path("text").asText());
    }

    @Test
    void aMessageWithNoNameIsLeftAsItWas() {
        String json = "{\"content\":[{\"type\":\"text\",\"text\":\"Build 4.2 passed; 12 files changed.\"}]}";
        ObjectNode r = toAgent("tools/call", json);
        assertEquals(Json.obj(json), r);
        assertEquals(0, cloak.vault().size());
        JsonNode named = toAgent("tools/call", "{\"owner\":{\"name\":\"Marie Dubois\"}}");
        assertTrue(named.at("/owner/name").asText().startsWith("[PERSON_"));
        assertEquals(Json.obj(json), toAgent("tools/call", json), "names known, none here: nothing changes");
    }
}
