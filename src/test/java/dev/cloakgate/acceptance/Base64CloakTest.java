package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static dev.cloakgate.acceptance.TwoUpstreamsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 9, item 2: base64 is neither a way around the cloak nor a way back out. The real filesystem server's
 * read_media_file returns any file as base64 (a CSV as {@code application/octet-stream}); behind a sanitizing
 * tenant without a policy, what it returns is cloaked as the text it is, and a real image and recording keep
 * their bytes.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class Base64CloakTest {
    private static final List<String> VALUES = List.of("isabel.ferreira@example-pt.pt", "4539 1488 0343 6467",
            "tomasz.nowak@example-pl.pl", "5425 2334 3010 9903");

    @TestHTTPResource("/t/media/mcp")
    URI media;

    private static String quote(String s) {
        return Json.write(TextNode.valueOf(s));
    }

    /** Every base64 blob or data of a read_media_file result, decoded; content and structuredContent alike. */
    private static List<byte[]> carried(ObjectNode response) {
        JsonNode result = response.path("result");
        assertFalse(result.path("isError").asBoolean(), response.toString());
        List<byte[]> out = new java.util.ArrayList<>();
        for (JsonNode item : List.of(result.path("content").path(0), result.path("structuredContent").path("content").path(0))) {
            String b64 = item.has("resource") ? item.path("resource").path("blob").asText() : item.path("data").asText();
            assertFalse(b64.isEmpty(), response.toString());
            out.add(Base64.getDecoder().decode(b64));
        }
        return out;
    }

    @Test
    void readMediaFileIsNeitherAWayAroundTheCloakNorAWayBackOut() throws Exception {
        Path dir = Path.of(System.getProperty("test.media.dir"));
        try (McpHttpClient c = new McpHttpClient(media)) {
            c.initialize("2025-11-25", Json.object());
            // the session holds tokens for the customers
            String csv = text(c.request("tools/call", call("fs__read_text_file",
                    "{\"path\":" + quote(dir.resolve("customers.csv").toString()) + "}")));
            assertTrue(csv.contains("[EMAIL_0]") && csv.contains("[CREDIT_CARD_0]"), csv);

            // the de-cloaking oracle: tokens go in as values (the round trip works, on disk) ...
            Path out = dir.resolve("oracle-" + UUID.randomUUID() + ".txt");
            ObjectNode w = c.request("tools/call", call("fs__write_file", "{\"path\":" + quote(out.toString())
                    + ",\"content\":\"[EMAIL_0] [CREDIT_CARD_0]\"}"));
            assertTrue(w.has("result") && !w.path("result").path("isError").asBoolean(), w.toString());
            assertEquals("isabel.ferreira@example-pt.pt 4539 1488 0343 6467", Files.readString(out));
            // ... and come back out of read_media_file as tokens, never as the values
            ObjectNode back = c.request("tools/call", call("fs__read_media_file", "{\"path\":" + quote(out.toString()) + "}"));
            assertEquals("application/octet-stream", back.at("/result/content/0/resource/mimeType").asText(), back.toString());
            for (byte[] b : carried(back)) {
                assertEquals("[EMAIL_0] [CREDIT_CARD_0]", new String(b, StandardCharsets.UTF_8));
            }

            // a CSV of customers read as media is cloaked as the text it is
            ObjectNode customers = c.request("tools/call", call("fs__read_media_file",
                    "{\"path\":" + quote(dir.resolve("customers.csv").toString()) + "}"));
            for (byte[] b : carried(customers)) {
                String t = new String(b, StandardCharsets.UTF_8);
                for (String v : VALUES) {
                    assertFalse(t.contains(v), v + " reached the client in " + t);
                }
                assertTrue(t.startsWith("name,email,card\n") && t.contains("[EMAIL_1]") && t.contains("[CREDIT_CARD_1]"), t);
            }
            assertFalse(VALUES.stream().anyMatch(Json.write(customers)::contains), customers.toString());

            // a real image and a real recording keep their bytes
            for (String file : List.of("photo.png", "tone.wav")) {
                byte[] onDisk = Files.readAllBytes(dir.resolve(file));
                ObjectNode r = c.request("tools/call", call("fs__read_media_file",
                        "{\"path\":" + quote(dir.resolve(file).toString()) + "}"));
                for (byte[] b : carried(r)) {
                    assertTrue(java.util.Arrays.equals(onDisk, b), file + " changed on its way through the gateway");
                }
                assertEquals(Base64.getEncoder().encodeToString(onDisk), r.at("/result/content/0/data").asText(), file);
            }
        }
    }
}
