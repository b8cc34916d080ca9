package dev.cloakgate.session;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The union of upstream capabilities: objects merge key by key, booleans OR, anything else keeps the first
 * upstream's value. The gateway routes every capability it advertises.
 */
public final class CapabilityMerge {
    private CapabilityMerge() {
    }

    public static ObjectNode merge(Iterable<JsonNode> capabilities) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (JsonNode c : capabilities) {
            if (c instanceof ObjectNode o) {
                into(out, o);
            }
        }
        return out;
    }

    private static void into(ObjectNode target, ObjectNode source) {
        Iterator<Map.Entry<String, JsonNode>> it = source.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode existing = target.get(e.getKey());
            JsonNode v = e.getValue();
            if (existing == null) {
                target.set(e.getKey(), v.deepCopy());
            } else if (existing instanceof ObjectNode eo && v instanceof ObjectNode vo) {
                into(eo, vo);
            } else if (existing.isBoolean() && v.isBoolean()) {
                target.put(e.getKey(), existing.booleanValue() || v.booleanValue());
            }
        }
    }
}
