package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Toward the upstream: tokens the vault issued are replaced by their values in every string and key the client
 * sent (so the tool gets the real address), and PII the model wrote itself, outside tokens, is counted per
 * category. Token-shaped text the vault never issued, escaped text and {@code [X_REDACTED]} stay as they are.
 */
public final class Restorer {
    private final Detection detection;

    public Restorer(Detection detection) {
        this.detection = detection;
    }

    /** What a restoration did: the vault entries it used and the raw PII found around them. */
    public record Result(List<Vault.Entry> used, Map<Category, Integer> rawPii) {
    }

    /** Restores in place (the caller owns the tree). */
    public Result restore(JsonNode node, Vault vault) {
        List<Vault.Entry> used = new ArrayList<>();
        Map<Category, Integer> raw = new EnumMap<>(Category.class);
        walk(node, vault, used, raw);
        return new Result(used, raw);
    }

    /** One string with its tokens replaced; nothing recorded (for routing a URI before the full pass). */
    public String peek(String s, Vault vault) {
        return replace(s, vault, new ArrayList<>(), null);
    }

    private void walk(JsonNode node, Vault vault, List<Vault.Entry> used, Map<Category, Integer> raw) {
        if (node instanceof ObjectNode o) {
            Map<String, JsonNode> rebuilt = new LinkedHashMap<>();
            boolean renamed = false;
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String k = e.getKey();
                JsonNode v = e.getValue();
                if (v.isTextual() && !"progressToken".equals(k)) {
                    v = TextNode.valueOf(replace(v.textValue(), vault, used, raw));
                } else if (v.isContainerNode()) {
                    walk(v, vault, used, raw);
                }
                String nk = Tokens.mayHoldToken(k) ? replace(k, vault, used, null) : k;
                renamed |= !nk.equals(k);
                rebuilt.put(nk, v);
            }
            o.removeAll();
            o.setAll(rebuilt);
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode v = a.get(i);
                if (v.isTextual()) {
                    a.set(i, TextNode.valueOf(replace(v.textValue(), vault, used, raw)));
                } else if (v.isContainerNode()) {
                    walk(v, vault, used, raw);
                }
            }
        }
    }

    private String replace(String s, Vault vault, List<Vault.Entry> used, Map<Category, Integer> raw) {
        if (!Tokens.mayHoldToken(s)) {
            count(s, raw);
            return s;
        }
        Matcher m = Tokens.SHAPE.matcher(s);
        StringBuilder out = null;
        StringBuilder written = raw == null ? null : new StringBuilder(s.length());
        int at = 0;
        while (m.find()) {
            Vault.Entry e = vault.resolve(m.group());
            if (e == null) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(s.length() + 32);
            }
            out.append(s, at, m.start()).append(e.value());
            if (written != null) {
                // what the model wrote around the tokens; a space keeps neighbours from fusing into one value
                written.append(s, at, m.start()).append(' ');
            }
            used.add(e);
            at = m.end();
        }
        if (out == null) {
            count(s, raw);
            return s;
        }
        out.append(s, at, s.length());
        if (written != null) {
            written.append(s, at, s.length());
            count(written.toString(), raw);
        }
        return out.toString();
    }

    private void count(String modelWritten, Map<Category, Integer> raw) {
        if (raw == null || modelWritten.isEmpty()) {
            return;
        }
        for (Finding f : detection.find(modelWritten)) {
            raw.merge(f.category(), 1, Integer::sum);
        }
    }
}
