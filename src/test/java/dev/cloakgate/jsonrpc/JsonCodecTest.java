package dev.cloakgate.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

class JsonCodecTest {
    private final JsonCodec codec = new JsonCodec(new JsonCodec.Limits(8, 1024));

    @Test
    void refusesDuplicateKeys() {
        var e = assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse("{\"a\":1,\"a\":2}"));
        assertFalse(e.tooDeep());
    }

    @Test
    void refusesLoneSurrogatesInValuesAndKeys() {
        assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse("{\"a\":\"x\\ud800y\"}"));
        assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse("{\"\\udc00\":1}"));
        // a proper pair is fine
        assertEquals("\uD83D\uDE00", assertParses("{\"a\":\"\\ud83d\\ude00\"}").get("a").textValue());
    }

    @Test
    void refusesNumbersBeyondDoubleRange() {
        assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse("{\"a\":1e400}"));
        assertTrue(assertParses("{\"a\":1e300}").get("a").isNumber());
    }

    @Test
    void nestingLimitIsReportedAsTooDeep() {
        var e = assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse("[[[[[[[[[[1]]]]]]]]]]"));
        assertTrue(e.tooDeep());
        assertParses("[[[[[[1]]]]]]");
    }

    @Test
    void sizeLimitAndTrailingContent() {
        byte[] big = ("{\"a\":\"" + "x".repeat(2000) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse(big));
        assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse("{\"a\":1} {\"b\":2}"));
        assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse(""));
    }

    @Test
    void errorMessagesDoNotQuotePayload() {
        var e = assertThrows(JsonCodec.MalformedJson.class, () -> codec.parse("{\"a\": secretvalue}"));
        assertFalse(e.getMessage().contains("secretvalue"), e.getMessage());
        assertTrue(e.getMessage().contains("line 1"));
    }

    @Test
    void decimalsKeepTheirWrittenForm() {
        JsonNode n = assertParses("{\"a\":1.0,\"b\":0.10,\"c\":12345678901234567890}");
        assertEquals("{\"a\":1.0,\"b\":0.10,\"c\":12345678901234567890}", codec.toString(n));
    }

    private JsonNode assertParses(String s) {
        try {
            return codec.parse(s);
        } catch (JsonCodec.MalformedJson e) {
            throw new AssertionError("should parse: " + s, e);
        }
    }
}
