package dev.cloakgate.gate;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * JSON equality as JSON Schema defines it for {@code enum}, {@code const} and the gate's {@code bindTo}: numbers by
 * mathematical value ({@code 1} equals {@code 1.0}; Jackson's own equals does not say so), objects regardless of
 * member order, arrays item by item. Bounded in depth; beyond it nothing is equal (a refusal, never a pass).
 */
final class JsonEquality {
    private JsonEquality() {
    }

    static boolean equal(JsonNode a, JsonNode b) {
        return equal(a, b, 0);
    }

    private static boolean equal(JsonNode a, JsonNode b, int depth) {
        if (depth > ArgumentRule.MAX_VALUE_DEPTH || a.getNodeType() != b.getNodeType()) {
            return false;
        }
        switch (a.getNodeType()) {
            case NUMBER:
                return a.decimalValue().compareTo(b.decimalValue()) == 0;
            case STRING:
                return a.textValue().equals(b.textValue());
            case BOOLEAN:
                return a.booleanValue() == b.booleanValue();
            case NULL:
                return true;
            case ARRAY:
                if (a.size() != b.size()) {
                    return false;
                }
                for (int i = 0; i < a.size(); i++) {
                    if (!equal(a.get(i), b.get(i), depth + 1)) {
                        return false;
                    }
                }
                return true;
            case OBJECT:
                if (a.size() != b.size()) {
                    return false;
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    JsonNode other = b.get(e.getKey());
                    if (other == null || !equal(e.getValue(), other, depth + 1)) {
                        return false;
                    }
                }
                return true;
            default:
                return false;
        }
    }
}
