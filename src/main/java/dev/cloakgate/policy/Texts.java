package dev.cloakgate.policy;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Every string value of a JSON tree, with its JSON pointer, for controls that read (and may rewrite) text. The
 * pointer is the one a finding may carry: keys that are not plainly identifiers are named by position
 * ({@link FindingDetail#segment}); {@code key} is the raw key, for the control's own judgement.
 */
public final class Texts {
    private Texts() {
    }

    /** Sees one string; returns a replacement, or null to leave it. */
    @FunctionalInterface
    public interface Visitor {
        String visit(String pointer, String key, String text);
    }

    /** Visits every string value in document order; replacements are applied in place. */
    public static void visit(JsonNode node, Visitor v) {
        walk(node, "", null, v);
    }

    private static void walk(JsonNode node, String pointer, String key, Visitor v) {
        if (node instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            for (int position = 0; it.hasNext(); position++) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = pointer + "/" + FindingDetail.segment(e.getKey(), position);
                if (e.getValue().isTextual()) {
                    String r = v.visit(p, e.getKey(), e.getValue().textValue());
                    if (r != null && !r.equals(e.getValue().textValue())) {
                        e.setValue(TextNode.valueOf(r));
                    }
                } else {
                    walk(e.getValue(), p, e.getKey(), v);
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode item = a.get(i);
                String p = pointer + "/" + i;
                if (item.isTextual()) {
                    String r = v.visit(p, key, item.textValue());
                    if (r != null && !r.equals(item.textValue())) {
                        a.set(i, TextNode.valueOf(r));
                    }
                } else {
                    walk(item, p, key, v);
                }
            }
        } else if (node != null && node.isTextual() && pointer.isEmpty()) {
            v.visit("", key, node.textValue());
        }
    }
}
