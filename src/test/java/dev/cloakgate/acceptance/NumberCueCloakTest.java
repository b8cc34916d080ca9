package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static dev.cloakgate.acceptance.TwoUpstreamsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 14 over the real protocol: a national phone number that a label or verb introduces, in a grouping no
 * configured region owns, and a card of an issuer range outside the known list right after "card number", read by
 * the real filesystem server, reach the client as tokens; sent back, the tokens land on disk as the real values.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class NumberCueCloakTest {
    private static final String PHONE = "78 651 450";
    private static final String CARD = "2131 4580 2297 131"; // Luhn-valid, generated for this test

    @TestHTTPResource("/t/rt-session/mcp")
    URI rtSession;

    @Test
    void cuedPhoneAndCardAreCloakedAndRestoredOnDisk() throws Exception {
        Path dir = Path.of(System.getProperty("test.roundtrip.dir"));
        Path in = dir.resolve("cued-" + UUID.randomUUID() + ".txt");
        Files.writeString(in, "Courier not answering at " + PHONE + " since noon.\nRefund to card number " + CARD + ".\n");
        try (McpHttpClient c = new McpHttpClient(rtSession)) {
            c.initialize("2025-11-25", Json.object());
            ObjectNode read = Json.object();
            read.put("path", in.toString());
            String seen = text(c.request("tools/call", call("fs__read_text_file", Json.write(read))));
            assertFalse(seen.contains(PHONE) || seen.contains(CARD), seen);
            String phone = first("\\[PHONE_\\d+]", seen);
            String card = first("\\[CREDIT_CARD_\\d+]", seen);
            Path out = dir.resolve("cued-out-" + UUID.randomUUID() + ".txt");
            ObjectNode args = Json.object();
            args.put("path", out.toString());
            args.put("content", "call " + phone + ", refund " + card);
            ObjectNode w = c.request("tools/call", call("fs__write_file", Json.write(args)));
            assertTrue(w.has("result") && !w.path("result").path("isError").asBoolean(), w.toString());
            // proved where the data lands, not read back through the gateway
            assertEquals("call " + PHONE + ", refund " + CARD, Files.readString(out));
        }
    }

    private static String first(String regex, String s) {
        Matcher m = Pattern.compile(regex).matcher(s);
        assertTrue(m.find(), "no token " + regex + " in: " + s);
        return m.group();
    }
}
