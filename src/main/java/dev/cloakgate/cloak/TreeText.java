package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Every string value and every key of a JSON tree, rewritten in place; an object keeps its key order. The whole
 * tree is read first and changed only once every string was rewritten, so a rewrite that throws leaves the tree
 * exactly as it was (what makes the tripwire fail-open).
 */
final class TreeText {
    /** A string value's new text; {@code key} is null in an array, {@code binaryField} as {@link Base64Text}. */
    @FunctionalInterface
    interface Values {
        String apply(String key, String value, boolean binaryField);
    }

    private TreeText() {
    }

    static void rewrite(JsonNode root, Values values, UnaryOperator<String> keys) {
        List<Runnable> edits = new ArrayList<>();
        walk(root, values, keys, edits);
        edits.forEach(Runnable::run);
    }

    private static void walk(JsonNode node, Values values, UnaryOperator<String> keys, List<Runnable> edits) {
        if (node instanceof ObjectNode o) {
            boolean binary = Base64Text.binaryContext(o);
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            boolean changed = false;
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String k = e.getKey();
                JsonNode v = e.getValue();
                if (v.isTextual()) {
                    String s = values.apply(k, v.textValue(), Base64Text.binaryField(k, binary));
                    if (!s.equals(v.textValue())) {
                        v = TextNode.valueOf(s);
                        changed = true;
                    }
                } else {
                    walk(v, values, keys, edits);
                }
                String nk = keys.apply(k);
                changed |= !nk.equals(k);
                fields.add(Map.entry(nk, v));
            }
            if (changed) {
                // rebuilt in order, so a renamed key keeps its place
                Map<String, JsonNode> rebuilt = new LinkedHashMap<>();
                fields.forEach(f -> rebuilt.put(f.getKey(), f.getValue()));
                edits.add(() -> {
                    o.removeAll();
                    o.setAll(rebuilt);
                });
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode v = a.get(i);
                if (v.isTextual()) {
                    String s = values.apply(null, v.textValue(), false);
                    if (!s.equals(v.textValue())) {
                        int at = i;
                        edits.add(() -> a.set(at, TextNode.valueOf(s)));
                    }
                } else {
                    walk(v, values, keys, edits);
                }
            }
        }
    }
}
