package dev.cloakgate.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

class JcsTest {

    private final ObjectMapper lax = new ObjectMapper();

    private String canonical(String json) throws Exception {
        return new String(Jcs.canonicalize(lax.readTree(json)), StandardCharsets.UTF_8);
    }

    /** RFC 8785 section 3.2.2 input and section 3.2.3 output, compared byte for byte. */
    @Test
    void rfc8785SampleObject() throws Exception {
        String input = "{\n"
                + "  \"numbers\": [333333333.33333329, 1E30, 4.50,\n"
                + "              2e-3, 0.000000000000000000000000001],\n"
                + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
                + "  \"literals\": [null, true, false]\n"
                + "}";
        String text = "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                + "\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
        byte[] actual = Jcs.canonicalize(lax.readTree(input));
        assertEquals(text, new String(actual, StandardCharsets.UTF_8));
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), actual);
        assertTrue(Jcs.isCanonical(actual));
    }

    /** RFC 8785 section 3.2.3 sorting example: UTF-16 code unit order puts the emoji before U+FB33. */
    @Test
    void rfc8785SortingByUtf16CodeUnits() throws Exception {
        String input = "{\n"
                + "  \"\\u20ac\": \"Euro Sign\",\n"
                + "  \"\\r\": \"Carriage Return\",\n"
                + "  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n"
                + "  \"1\": \"One\",\n"
                + "  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n"
                + "  \"\\u0080\": \"Control\",\n"
                + "  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n"
                + "}";
        JsonNode tree = lax.readTree(input);
        String out = new String(Jcs.canonicalize(tree), StandardCharsets.UTF_8);
        List<String> order = List.of("Carriage Return", "One", "Control", "Latin Small Letter O With Diaeresis",
                "Euro Sign", "Emoji: Grinning Face", "Hebrew Letter Dalet With Dagesh");
        int last = -1;
        for (String value : order) {
            int at = out.indexOf(value);
            assertTrue(at > last, value + " out of order in " + out);
            last = at;
        }
        assertTrue(out.startsWith("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\""), out);
    }

    @Test
    void escapesOnlyWhatRfc8785Requires() throws Exception {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("s", "\u0000\u0001\u001f\b\t\n\f\r\"\\/\u007f\u2028<>&é😀");
        assertEquals("{\"s\":\"\\u0000\\u0001\\u001f\\b\\t\\n\\f\\r\\\"\\\\/\u007f\u2028<>&é😀\"}",
                new String(Jcs.canonicalize(node), StandardCharsets.UTF_8));
    }

    @Test
    void numbersFromEveryNodeKind() throws Exception {
        assertEquals("[1e+23,0.30000000000000004,9007199254740992,9007199254740992,0,1e+21,1e-7]",
                canonical("[1e23, 0.30000000000000004, 9007199254740992, 9007199254740993, -0.0, 1e21, 1e-7]"));
        var f = JsonNodeFactory.instance;
        var array = f.arrayNode()
                .add(f.numberNode(new BigInteger("123456789012345678901")))
                .add(f.numberNode(new BigDecimal("4.50")))
                .add(f.numberNode(7L))
                .add(f.numberNode(-0.0));
        assertEquals("[123456789012345680000,4.5,7,0]", new String(Jcs.canonicalize(array), StandardCharsets.UTF_8));
    }

    @Test
    void refusesWhatHasNoCanonicalForm() {
        var f = JsonNodeFactory.instance;
        assertThrows(IllegalArgumentException.class, () -> Jcs.canonicalize(f.numberNode(Double.NaN)));
        assertThrows(IllegalArgumentException.class,
                () -> Jcs.canonicalize(f.numberNode(new BigDecimal("1e400"))));
        assertThrows(IllegalArgumentException.class, () -> Jcs.canonicalize(f.textNode("x\uD800")));
        assertThrows(IllegalArgumentException.class, () -> Jcs.canonicalize(f.binaryNode(new byte[] {1})));
        assertThrows(IllegalArgumentException.class, () -> Jcs.canonicalize(f.objectNode().put("\uDC00", 1)));
    }

    @Test
    void nestedStructuresAndEmptyOnes() throws Exception {
        assertEquals("{\"a\":{},\"b\":[],\"c\":[{\"x\":null,\"y\":\"\"}]}",
                canonical("{ \"c\" : [ { \"y\":\"\", \"x\":null } ], \"b\":[ ], \"a\":{ } }"));
    }

    // --- strict parsing ---

    private static List<JsonDefect> defects(String json) {
        return defects(json.getBytes(StandardCharsets.UTF_8));
    }

    private static List<JsonDefect> defects(byte[] json) {
        StrictJson read = Jcs.parseStrict(json);
        return assertInstanceOf(StrictJson.Rejected.class, read, "expected a rejection").defects();
    }

    private static List<JsonDefect.Kind> kinds(List<JsonDefect> defects) {
        return defects.stream().map(JsonDefect::kind).toList();
    }

    @Test
    void strictParseAcceptsPlainJson() {
        StrictJson read = Jcs.parseStrict("{\"a\":[1,2.5,\"\\ud83d\\ude00\"],\"b\":9007199254740992}".getBytes());
        JsonNode value = assertInstanceOf(StrictJson.Parsed.class, read).value();
        assertEquals(2.5, value.get("a").get(1).doubleValue());
        assertEquals(9007199254740992L, value.get("b").longValue());
    }

    @Test
    void strictParseReportsEveryDefectNotOnlyTheFirst() {
        List<JsonDefect> found = defects("{\"a\":1,\"a\":2,\"s\":\"\\ud800\",\"big\":1e400,"
                + "\"n\":9007199254740993,\"tiny\":1e-400,\"\\udc00\":0}");
        assertEquals(List.of(JsonDefect.Kind.DUPLICATE_KEY, JsonDefect.Kind.LONE_SURROGATE,
                JsonDefect.Kind.NUMBER_OUT_OF_RANGE, JsonDefect.Kind.NUMBER_UNREPRESENTABLE,
                JsonDefect.Kind.NUMBER_OUT_OF_RANGE, JsonDefect.Kind.LONE_SURROGATE), kinds(found));
        assertEquals("/a", found.get(0).where());
        assertEquals("/s", found.get(1).where());
        assertEquals("/big", found.get(2).where());
        assertEquals("/n", found.get(3).where());
        assertEquals("/\\udc00", found.get(5).where());
    }

    @Test
    void duplicatesAreComparedAfterUnescaping() {
        assertEquals(List.of(JsonDefect.Kind.DUPLICATE_KEY), kinds(defects("{\"a\":1,\"\\u0061\":1}")));
        assertEquals("/x/0/b", defects("{\"x\":[{\"b\":1,\"b\":1}]}").get(0).where());
    }

    @Test
    void strictParseRefusesInvalidUtf8WithItsOffset() {
        byte[] overlong = {'"', (byte) 0xC0, (byte) 0xAF, '"'};
        byte[] encodedSurrogate = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        byte[] truncated = {'"', 'a', (byte) 0xE2, (byte) 0x82};
        for (byte[] bad : List.of(overlong, encodedSurrogate, truncated)) {
            List<JsonDefect> found = defects(bad);
            assertEquals(List.of(JsonDefect.Kind.INVALID_UTF8), kinds(found));
        }
        assertEquals("byte 2", defects(truncated).get(0).where());
    }

    @Test
    void strictParseRefusesSyntaxAndTrailingContent() {
        assertEquals(List.of(JsonDefect.Kind.SYNTAX), kinds(defects("{\"a\":01}")));
        assertEquals(List.of(JsonDefect.Kind.SYNTAX), kinds(defects("{\"a\":NaN}")));
        assertEquals(List.of(JsonDefect.Kind.SYNTAX), kinds(defects("[1,]")));
        assertEquals(List.of(JsonDefect.Kind.SYNTAX), kinds(defects("")));
        assertEquals(List.of(JsonDefect.Kind.SYNTAX), kinds(defects("\"a\u0001\"")));
        assertEquals(List.of(JsonDefect.Kind.TRAILING_CONTENT), kinds(defects("{} {}")));
        // defects found before the syntax error are still reported
        assertEquals(List.of(JsonDefect.Kind.DUPLICATE_KEY, JsonDefect.Kind.SYNTAX),
                kinds(defects("{\"a\":1,\"a\":2,")));
    }

    @Test
    void isCanonicalHoldsOnlyForTheExactBytes() {
        assertTrue(Jcs.isCanonical("{\"a\":1,\"b\":[true,null,\"x\"]}".getBytes()));
        assertTrue(Jcs.isCanonical("1e+23".getBytes()));
        assertTrue(Jcs.isCanonical("[295147905179352830000,-9007199254740992,123456789012345680000]".getBytes()));
        assertEquals(List.of(JsonDefect.Kind.NUMBER_UNREPRESENTABLE),
                kinds(defects("[100000000000000000000000000000000000001]")));
        assertFalse(Jcs.isCanonical("{\"b\":1,\"a\":1}".getBytes()));
        assertFalse(Jcs.isCanonical("{\"a\": 1}".getBytes()));
        assertFalse(Jcs.isCanonical("{\"a\":1.0}".getBytes()));
        assertFalse(Jcs.isCanonical("{\"a\":\"\\u0041\"}".getBytes()));
        assertFalse(Jcs.isCanonical("{\"a\":\"\\/\"}".getBytes()));
        assertFalse(Jcs.isCanonical("{\"a\":1}\n".getBytes()));
        assertFalse(Jcs.isCanonical("{\"a\":9007199254740993}".getBytes()));
        assertFalse(Jcs.isCanonical("{\"a\":1,\"a\":1}".getBytes()));

        List<JsonDefect> found = Jcs.check("{\"a\":1,\"b\":2.50}".getBytes());
        assertEquals(List.of(JsonDefect.Kind.NOT_CANONICAL), kinds(found));
        assertEquals("byte 14", found.get(0).where());
    }
}
