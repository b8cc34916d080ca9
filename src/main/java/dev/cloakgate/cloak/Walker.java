package dev.cloakgate.cloak;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * The typed pass toward the agent: every string is cloaked, whatever field it is in (a field the gateway has
 * never heard of is cloaked, not ignored), except discriminators and correlation ids ({@code type},
 * {@code mimeType}, {@code progressToken}) and base64 binary ({@code data}, {@code blob} next to a
 * {@code mimeType} or in image/audio content), whose exact bytes must survive. Every skip is counted. Keys
 * are left to the tripwire: renaming a protocol key would change the shape the client parses.
 */
public final class Walker {
    private static final Set<String> DISCRIMINATORS = Set.of("type", "mimeType", "progressToken");
    private static final Set<String> BINARY = Set.of("data", "blob");
    /** Objects whose "name" is a protocol field (a resource's or a link's name), not a person's. */
    private static final Set<String> PROTOCOL_MARKERS = Set.of("uri", "uriTemplate", "inputSchema", "arguments");

    private final Detection detection;

    public Walker(Detection detection) {
        this.detection = detection;
    }

    /** Cloaks the tree in place (the caller owns it); values come from {@code upstream}. */
    public void cloak(JsonNode root, Vault vault, String upstream, Counts counts) {
        walk(root, null, false, vault, upstream, counts);
    }

    /** Cloaks one string: escape token-shaped text, then replace what detection (or a key hint) finds. */
    public String cloakString(String s, Category hint, Vault vault, String upstream, Counts counts) {
        String escaped = Tokens.escape(s);
        if (hint != null && detection.acceptsHinted(hint, escaped.strip())) {
            counts.cloaked(hint);
            String v = escaped.strip();
            int lead = escaped.indexOf(v);
            return escaped.substring(0, lead) + vault.tokenFor(hint, v, upstream)
                    + escaped.substring(lead + v.length());
        }
        List<Finding> found = detection.find(escaped);
        if (found.isEmpty()) {
            return escaped;
        }
        StringBuilder out = new StringBuilder(escaped.length());
        int at = 0;
        for (Finding f : found) {
            out.append(escaped, at, f.start());
            out.append(vault.tokenFor(f.category(), escaped.substring(f.start(), f.end()), upstream));
            counts.cloaked(f.category());
            at = f.end();
        }
        out.append(escaped, at, escaped.length());
        return out.toString();
    }

    private void walk(JsonNode node, String key, boolean protocolObject, Vault vault, String upstream, Counts counts) {
        Runnable splitCards = SplitCards.find(node, key, detection, vault, upstream, counts); // issue 9, item 9
        if (node instanceof ObjectNode o) {
            boolean binary = o.has("mimeType") || isMediaType(o.get("type"));
            boolean protocol = false;
            for (String m : PROTOCOL_MARKERS) {
                protocol |= o.has(m);
            }
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            boolean dataKeys = false;
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                fields.add(e);
                dataKeys |= e.getKey().indexOf('[') >= 0 || isDataKey(e.getKey());
            }
            if (dataKeys) {
                fields = cloakKeys(o, fields, vault, upstream, counts);
            }
            for (Map.Entry<String, JsonNode> e : fields) {
                String k = e.getKey();
                JsonNode v = e.getValue();
                if (v.isTextual() && DISCRIMINATORS.contains(k)) {
                    counts.skipped(k);
                } else if (v.isTextual() && BINARY.contains(k) && binary && Base64Text.looksLike(v.textValue())) {
                    counts.skipped(k);
                } else if (v.isTextual()) {
                    Category hint = protocol && ("name".equals(k) || "title".equals(k)) ? null : detection.hintFor(k);
                    String c = cloakString(v.textValue(), hint, vault, upstream, counts);
                    if (!c.equals(v.textValue())) {
                        o.set(k, TextNode.valueOf(c));
                    }
                } else if (v.isIntegralNumber()) {
                    String c = cloakNumber(v, protocol ? null : detection.hintFor(k), vault, upstream, counts);
                    if (c != null) {
                        o.set(k, TextNode.valueOf(c));
                    }
                } else {
                    walk(v, k, protocol, vault, upstream, counts);
                }
            }
        } else if (node instanceof ArrayNode a) {
            Category hint = key == null || protocolObject ? null : detection.hintFor(key);
            for (int i = 0; i < a.size(); i++) {
                JsonNode v = a.get(i);
                if (v.isTextual()) {
                    String c = cloakString(v.textValue(), hint, vault, upstream, counts);
                    if (!c.equals(v.textValue())) {
                        a.set(i, TextNode.valueOf(c));
                    }
                } else if (v.isIntegralNumber()) {
                    String c = cloakNumber(v, hint, vault, upstream, counts);
                    if (c != null) {
                        a.set(i, TextNode.valueOf(c));
                    }
                } else {
                    walk(v, key, protocolObject, vault, upstream, counts);
                }
            }
        }
        splitCards.run();
    }

    /**
     * Keys are the client's to parse and stay as they are, with two exceptions that never touch a protocol
     * key: token-shaped text (a hostile upstream's attempt at a token) is escaped, and a key that is plainly
     * a value (it holds whitespace, as "Marie Dubois" does and no identifier does) is cloaked like one.
     */
    private List<Map.Entry<String, JsonNode>> cloakKeys(ObjectNode o, List<Map.Entry<String, JsonNode>> fields,
            Vault vault, String upstream, Counts counts) {
        java.util.LinkedHashMap<String, JsonNode> rebuilt = new java.util.LinkedHashMap<>();
        boolean changed = false;
        for (Map.Entry<String, JsonNode> e : fields) {
            String k = e.getKey();
            String nk = isDataKey(k) ? cloakString(k, null, vault, upstream, counts) : Tokens.escape(k);
            changed |= !nk.equals(k);
            rebuilt.put(nk, e.getValue());
        }
        if (!changed) {
            return fields;
        }
        o.removeAll();
        o.setAll(rebuilt);
        return new ArrayList<>(rebuilt.entrySet());
    }

    private static boolean isDataKey(String k) {
        for (int i = 0; i < k.length(); i++) {
            if (Character.isWhitespace(k.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A number is PII when a key names it (a phone or SSN stored as an integer) or when its digits alone are a
     * valid card number; it then becomes its token, a string: leaking the value would be worse than the type.
     */
    private String cloakNumber(JsonNode v, Category hint, Vault vault, String upstream, Counts counts) {
        BigInteger b = v.bigIntegerValue();
        if (b.signum() < 0 || b.bitLength() < 20) {
            return null;
        }
        String digits = b.toString();
        if (hint != null && detection.acceptsHinted(hint, digits)) {
            counts.cloaked(hint);
            return vault.tokenFor(hint, digits, upstream);
        }
        for (Finding f : detection.find(digits)) {
            if (f.start() == 0 && f.end() == digits.length() && f.category() == Category.CREDIT_CARD) {
                counts.cloaked(f.category());
                return vault.tokenFor(f.category(), digits, upstream);
            }
        }
        return null;
    }

    private static boolean isMediaType(JsonNode type) {
        return type != null && ("image".equals(type.asText()) || "audio".equals(type.asText()));
    }
}
