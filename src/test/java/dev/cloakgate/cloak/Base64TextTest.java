package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;


import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.cloak.detect.CreditCardDetector;
import dev.cloakgate.cloak.detect.EmailDetector;
import dev.cloakgate.cloak.detect.PhoneDetector;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.tenant.DetectionSettings;
import dev.cloakgate.tenant.TokenScope;
import dev.cloakgate.testing.MediaFiles;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** Base64 that is text is cloaked as text, in the layout it came in; binary that is not text keeps its bytes. */
class Base64TextTest {
    private static final String CSV = "name,email,card\nMarie Dubois,marie.dubois@example-eu.fr,4111 1111 1111 1111\n"
            + "Kwame Mensah,kwame.mensah@example.gh,5555 5555 5555 4444\n";
    private static final List<String> VALUES = List.of("marie.dubois@example-eu.fr", "4111 1111 1111 1111",
            "kwame.mensah@example.gh", "5555 5555 5555 4444");

    private final ObjectMapper m = new ObjectMapper();
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final Cloak cloak = new Cloaking("t", new Detection(List.of(new CreditCardDetector(), new EmailDetector(),
            new PhoneDetector(DetectionSettings.DEFAULT_PHONE_REGIONS)), true), TokenScope.SESSION, 1000, metrics,
            Evidence.NONE).session("s");

    /** A read_media_file result as the real filesystem server builds it for a file that is not image or audio. */
    private ObjectNode media(String blob) {
        ObjectNode item = m.createObjectNode().put("type", "resource");
        item.putObject("resource").put("uri", "file:///srv/customers.csv").put("mimeType", "application/octet-stream")
                .put("blob", blob);
        ObjectNode result = m.createObjectNode();
        result.putArray("content").add(item);
        result.putObject("structuredContent").putArray("content").add(item.deepCopy());
        return result;
    }

    private String blobAfter(String blob) {
        ObjectNode r = media(blob);
        cloak.toAgent("fs", "tools/call", r);
        assertEquals(r.at("/content/0/resource/blob"), r.at("/structuredContent/content/0/resource/blob"));
        return r.at("/content/0/resource/blob").asText();
    }

    private static void assertCloaked(String text) {
        for (String v : VALUES) {
            assertFalse(text.contains(v), v + " reached the agent in " + text);
        }
        assertTrue(text.contains("[EMAIL_0]") && text.contains("[CREDIT_CARD_1]"), text);
    }

    private double count(String outcome) {
        var c = metrics.find("cloakgate.base64").tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aCsvSentAsOctetStreamIsCloakedAsText() {
        String out = blobAfter(Base64.getEncoder().encodeToString(CSV.getBytes(StandardCharsets.UTF_8)));
        String text = new String(Base64.getDecoder().decode(out), StandardCharsets.UTF_8);
        assertCloaked(text);
        assertTrue(text.startsWith("name,email,card\n"), text);
        assertTrue(count("text") >= 1);
    }

    @Test
    void everyLayoutIsKept() {
        record Case(String name, Base64.Encoder encoder, Charset charset, byte[] bom) {
        }
        List<Case> cases = List.of(
                new Case("MIME lines, CRLF", Base64.getMimeEncoder(), StandardCharsets.UTF_8, new byte[0]),
                new Case("MIME lines of 64, LF", Base64.getMimeEncoder(64, new byte[] { '\n' }), StandardCharsets.UTF_8,
                        new byte[0]),
                new Case("URL alphabet, no padding", Base64.getUrlEncoder().withoutPadding(), StandardCharsets.UTF_8,
                        new byte[0]),
                new Case("UTF-8 with a BOM", Base64.getEncoder(), StandardCharsets.UTF_8,
                        new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF }),
                new Case("UTF-16LE with a BOM", Base64.getEncoder(), StandardCharsets.UTF_16LE,
                        new byte[] { (byte) 0xFF, (byte) 0xFE }),
                new Case("UTF-16BE with a BOM", Base64.getEncoder(), StandardCharsets.UTF_16BE,
                        new byte[] { (byte) 0xFE, (byte) 0xFF }),
                new Case("UTF-16LE without a BOM", Base64.getEncoder(), StandardCharsets.UTF_16LE, new byte[0]),
                new Case("Latin-1", Base64.getEncoder(), StandardCharsets.ISO_8859_1, new byte[0]));
        for (Case c : cases) {
            String csv = CSV + "Zoë Müller,zoe.muller@example.de,\n";
            byte[] body = csv.getBytes(c.charset);
            byte[] bytes = new byte[c.bom.length + body.length];
            System.arraycopy(c.bom, 0, bytes, 0, c.bom.length);
            System.arraycopy(body, 0, bytes, c.bom.length, body.length);
            String in = c.encoder.encodeToString(bytes);
            String out = blobAfter(in);
            byte[] decoded = Base64.getMimeDecoder().decode(out);
            for (int i = 0; i < c.bom.length; i++) {
                assertEquals(c.bom[i], decoded[i], c.name + ": byte-order mark kept");
            }
            String text = new String(decoded, c.bom.length, decoded.length - c.bom.length, c.charset);
            assertCloaked(text);
            assertFalse(text.contains("zoe.muller@example.de"), c.name);
            assertTrue(text.contains("Zoë Müller"), c.name + ": the rest of the text as it was: " + text);
            assertEquals(c.encoder.encodeToString(decoded), out, c.name + ": the same alphabet, padding and lines");
        }
    }

    @Test
    void unchangedTextStaysByteIdentical() {
        String in = Base64.getMimeEncoder().encodeToString("nothing personal here\r\n".repeat(20).getBytes(StandardCharsets.UTF_8));
        assertEquals(in, blobAfter(in));
    }

    @Test
    void aRealImageAndRecordingStayByteIdentical() {
        for (String[] c : new String[][] { { "image", "image/png", Base64.getEncoder().encodeToString(MediaFiles.png()) },
                { "audio", "audio/wav", Base64.getEncoder().encodeToString(MediaFiles.wav()) } }) {
            ObjectNode r0 = m.createObjectNode();
            r0.putArray("content").addObject().put("type", c[0]).put("mimeType", c[1]).put("data", c[2]);
            cloak.toAgent("fs", "tools/call", r0);
            assertEquals(c[2], r0.at("/content/0/data").asText(), c[1] + " byte for byte");
        }
        assertEquals(2, count("binary_not_text"));
    }

    @Test
    void nestedBase64IsDecodedToAFixedDepthThenWithheld() {
        String layer = CSV;
        for (int depth = 1; depth <= 4; depth++) {
            layer = Base64.getEncoder().encodeToString(layer.getBytes(StandardCharsets.UTF_8));
            String out = blobAfter(layer);
            String text = out;
            for (int i = 0; i < depth; i++) {
                text = new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
            }
            if (depth <= Base64Text.MAX_DEPTH) {
                assertCloaked(text);
            } else {
                assertTrue(text.startsWith("[cloakgate withheld this base64 text: nested deeper than 3"), text);
            }
        }
        assertEquals(2, count("withheld_too_deep"), "the blob and its copy in structuredContent");
    }

    @Test
    void anyStringThatIsBase64OfTextAndDataUrisInTextAreCloaked() throws Exception {
        String b64 = Base64.getEncoder().encodeToString(CSV.getBytes(StandardCharsets.UTF_8));
        String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(CSV.getBytes(StandardCharsets.UTF_8));
        JsonNode r = m.readTree("{\"content\":[{\"type\":\"text\",\"text\":\"" + b64 + "\"},{\"type\":\"text\",\"text\":"
                + "\"see <a href='data:text/csv;charset=utf-8;base64," + urlSafe + "'>the export</a> and"
                + " DATA:;BASE64," + b64 + ")\"}],\"_meta\":{\"x\":[\"" + b64 + "\"]}}");
        cloak.toAgent("fs", "tools/call", r);
        assertCloaked(new String(Base64.getDecoder().decode(r.at("/content/0/text").asText()), StandardCharsets.UTF_8));
        assertCloaked(new String(Base64.getDecoder().decode(r.at("/_meta/x/0").asText()), StandardCharsets.UTF_8));
        String t = r.at("/content/1/text").asText();
        String uri = t.substring(t.indexOf("base64,") + 7, t.indexOf('\'', t.indexOf("base64,")));
        assertCloaked(new String(Base64.getUrlDecoder().decode(uri), StandardCharsets.UTF_8));
        String upper = t.substring(t.indexOf("BASE64,") + 7, t.lastIndexOf(')'));
        assertCloaked(new String(Base64.getDecoder().decode(upper), StandardCharsets.UTF_8));
        assertTrue(t.startsWith("see <a href='data:text/csv;charset=utf-8;base64,") && t.contains("'>the export</a> and DATA:;BASE64,"), t);
    }

    @Test
    void textPaddedToLookBinaryIsStillText() {
        String padded = "\u0001\u0002\u0003".repeat(400) + " marie.dubois@example-eu.fr \u0000\u0007".repeat(3);
        String out = blobAfter(Base64.getEncoder().encodeToString(padded.getBytes(StandardCharsets.UTF_8)));
        assertFalse(new String(Base64.getDecoder().decode(out), StandardCharsets.UTF_8).contains("marie.dubois"));
    }

    @Test
    void textOverTheLimitIsWithheldAndBinaryOverItPasses() {
        byte[] big = ("x".repeat(99) + "\n").repeat(Base64Text.MAX_DECODED / 100 + 10).getBytes(StandardCharsets.UTF_8);
        String out = blobAfter(Base64.getEncoder().encodeToString(big));
        assertTrue(new String(Base64.getDecoder().decode(out), StandardCharsets.UTF_8).contains("withheld"));
        assertEquals(2, count("withheld_over_limit"), "the blob and its copy in structuredContent");
        byte[] noise = new byte[Base64Text.MAX_DECODED + 1000];
        new Random(3).nextBytes(noise);
        String in = Base64.getEncoder().encodeToString(noise);
        assertEquals(in, blobAfter(in));
    }

    @Test
    void tokenShapesInsideBase64AreEscapedAndTheTripwireReadsIt() {
        String out = blobAfter(Base64.getEncoder().encodeToString("forward to [EMAIL_0]\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals("forward to [~EMAIL_0]\n", new String(Base64.getDecoder().decode(out), StandardCharsets.UTF_8));
        // the tripwire on its own (after a typed pass that missed something) decodes the same way
        Vault v = new Vault(100);
        ObjectNode r = media(Base64.getEncoder().encodeToString("mail kwame.mensah@example.gh\n".getBytes(StandardCharsets.UTF_8)));
        Counts caught = new Tripwire(new Detection(List.of(new EmailDetector()), false), "t").sweep(r, v, "fs");
        assertEquals(Integer.valueOf(2), caught.cloaked().get(Category.EMAIL));
        assertEquals("mail [EMAIL_0]\n", new String(Base64.getDecoder().decode(r.at("/content/0/resource/blob").asText()),
                StandardCharsets.UTF_8));
    }
}
