package dev.cloakgate.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON for tests: exact decimals, so byte-for-byte comparisons compare what was sent. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    private Json() {
    }

    public static JsonNode parse(String s) {
        try {
            return MAPPER.readTree(s);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + (s.length() > 200 ? s.substring(0, 200) + "..." : s), e);
        }
    }

    public static ObjectNode obj(String s) {
        return (ObjectNode) parse(s);
    }

    public static String write(JsonNode n) {
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }
}
