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
 * {@code mimeType}, {@code progressToken}). Text carried as base64 is cloaked as text ({@link Base64Text}): a
 * {@code data} or {@code blob} that decodes to text, whatever its mimeType, any string that is wholly base64 of
 * text, {@code data:} URIs inside text. Binary that is not text ({@code data}, {@code blob} next to a
 * {@code mimeType} or in image/audio content) keeps its exact bytes. Every skip is counted. Keys are left to the
 * tripwire: renaming a protocol key would change the shape the client parses. Token shapes the upstream wrote
 * were escaped before this pass ({@link Escaper}).
 */
public final class Walker {
    static final Set<String> DISCRIMINATORS = Set.of("type", "mimeType", "progressToken");
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

    /** Cloaks one string: replaces what detection (or a key hint) finds. */
    public String cloakString(String s, Category hint, Vault vault, String upstream, Counts counts) {
        if (hint != null && detection.acceptsHinted(hint, s.strip())) {
            counts.cloaked(hint);
            String v = s.strip();
            if (hint == Category.PERSON && v.indexOf(' ') > 0) {
                // one word under "name" is as often a product or a team as a person: cloaked here, not propagated
                counts.name(v);
            }
            int lead = s.indexOf(v);
            return s.substring(0, lead) + vault.tokenFor(hint, v, upstream)
                    + s.substring(lead + v.length());
        }
        List<Finding> found = detection.find(s);
        if (found.isEmpty()) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        int at = 0;
        for (Finding f : found) {
            out.append(s, at, f.start());
            String value = s.substring(f.start(), f.end());
            out.append(vault.tokenFor(f.category(), value, upstream));
            counts.cloaked(f.category());
            if (f.category() == Category.PERSON) {
                counts.name(value);
            }
            at = f.end();
        }
        out.append(s, at, s.length());
        return out.toString();
    }

    private void walk(JsonNode node, String key, boolean protocolObject, Vault vault, String upstream, Counts counts) {
        Runnable splitCards = SplitCards.find(node, key, detection, vault, upstream, counts); // parts of one card across siblings
        if (node instanceof ObjectNode o) {
            boolean binary = Base64Text.binaryContext(o);
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
                dataKeys |= isDataKey(e.getKey());
            }
            if (dataKeys) {
                fields = cloakKeys(o, fields, vault, upstream, counts);
            }
            for (Map.Entry<String, JsonNode> e : fields) {
                String k = e.getKey();
                JsonNode v = e.getValue();
                if (v.isTextual() && DISCRIMINATORS.contains(k)) {
                    counts.skipped(k);
                } else if (v.isTextual()) {
                    Category hint = protocol && ("name".equals(k) || "title".equals(k)) ? null : detection.hintFor(k);
                    String c = cloakCarried(v.textValue(), k, Base64Text.binaryField(k, binary), hint, vault, upstream,
                            counts);
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
                    String c = cloakCarried(v.textValue(), key, false, hint, vault, upstream, counts);
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
     * A string value with the text it carries cloaked: the string itself, or the text base64 in it decodes to.
     * Base64 under a binary field that is not text is skipped (counted under its key) and keeps its bytes.
     */
    private String cloakCarried(String s, String key, boolean binaryField, Category hint, Vault vault, String upstream,
            Counts counts) {
        Base64Text.Mapped m = Base64Text.map(s, binaryField, t -> cloakString(t, hint, vault, upstream, counts), null);
        if (m.outcome() == Base64Text.Outcome.BINARY) {
            counts.skipped(key);
        }
        return m.value();
    }

    /**
     * Keys are the client's to parse and stay as they are (token shapes in them were escaped before this
     * pass), except a key that is plainly a value (it holds whitespace, as "Marie Dubois" does and no
     * identifier does), which is cloaked like one. A protocol key is never touched.
     */
    private List<Map.Entry<String, JsonNode>> cloakKeys(ObjectNode o, List<Map.Entry<String, JsonNode>> fields,
            Vault vault, String upstream, Counts counts) {
        java.util.LinkedHashMap<String, JsonNode> rebuilt = new java.util.LinkedHashMap<>();
        boolean changed = false;
        for (Map.Entry<String, JsonNode> e : fields) {
            String k = e.getKey();
            String nk = isDataKey(k) ? cloakString(k, null, vault, upstream, counts) : k;
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

}
