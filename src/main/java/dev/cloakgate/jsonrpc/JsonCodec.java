package dev.cloakgate.jsonrpc;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * Strict JSON for messages crossing the gateway. What a laxer parser further down the line would read
 * differently is refused here rather than passed on: duplicate keys, lone surrogates, numbers that overflow
 * a double, nesting deeper than the limit, trailing content.
 */
public final class JsonCodec {

    /** Size and shape limits; {@code maxDepth} counts nested arrays and objects. */
    public record Limits(int maxDepth, int maxBytes) {
        public Limits {
            if (maxDepth < 2 || maxBytes < 64) {
                throw new IllegalArgumentException("JSON limits too small: depth " + maxDepth + ", bytes " + maxBytes);
            }
        }
    }

    /** The input was not one readable JSON document; {@code tooDeep} tells the nesting limit apart. */
    public static final class MalformedJson extends Exception {
        private final boolean tooDeep;

        MalformedJson(String message, boolean tooDeep) {
            super(message, null, false, false);
            this.tooDeep = tooDeep;
        }

        public boolean tooDeep() {
            return tooDeep;
        }
    }

    private final ObjectMapper mapper;
    private final Limits limits;

    public JsonCodec(Limits limits) {
        this.limits = limits;
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(limits.maxDepth())
                        .maxStringLength(limits.maxBytes())
                        .maxNumberLength(1000)
                        .build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        this.mapper = new ObjectMapper(factory)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // exact decimals keep 1.0 as 1.0 on the way through, instead of normalising it to 1
                .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
    }

    public Limits limits() {
        return limits;
    }

    public JsonNode parse(byte[] bytes) throws MalformedJson {
        return parse(bytes, 0, bytes.length);
    }

    public JsonNode parse(byte[] bytes, int offset, int length) throws MalformedJson {
        if (length > limits.maxBytes()) {
            throw new MalformedJson("message of " + length + " bytes exceeds the limit of " + limits.maxBytes(), false);
        }
        JsonNode node;
        try (JsonParser p = mapper.getFactory().createParser(bytes, offset, length)) {
            node = mapper.readTree(p);
        } catch (StreamConstraintsException e) {
            boolean deep = e.getMessage() != null && e.getMessage().contains("nesting depth");
            throw new MalformedJson(deep ? "JSON nesting deeper than " + limits.maxDepth() : "JSON exceeds a size limit", deep);
        } catch (JsonProcessingException e) {
            // the location only: Jackson's message quotes the offending token, which is payload
            JsonLocation at = e.getLocation();
            throw new MalformedJson(at == null ? "unreadable JSON"
                    : "unreadable JSON at line " + at.getLineNr() + ", column " + at.getColumnNr(), false);
        } catch (IOException e) {
            throw new MalformedJson("unreadable JSON", false);
        }
        if (node == null || node.isMissingNode()) {
            throw new MalformedJson("empty message", false);
        }
        String problem = check(node);
        if (problem != null) {
            throw new MalformedJson(problem, false);
        }
        return node;
    }

    public JsonNode parse(String text) throws MalformedJson {
        return parse(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public byte[] toBytes(JsonNode node) {
        try {
            return mapper.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    public String toString(JsonNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    /** Values a laxer parser would read differently: lone surrogates and floats beyond double range. */
    private static String check(JsonNode node) {
        if (node.isTextual()) {
            return loneSurrogate(node.textValue()) ? "string holds a lone surrogate" : null;
        }
        if (node.isBigDecimal()) {
            BigDecimal d = node.decimalValue();
            return Double.isInfinite(d.doubleValue()) ? "number out of range" : null;
        }
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (loneSurrogate(e.getKey())) {
                    return "key holds a lone surrogate";
                }
                String p = check(e.getValue());
                if (p != null) {
                    return p;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode child : node) {
                String p = check(child);
                if (p != null) {
                    return p;
                }
            }
        }
        return null;
    }

    static boolean loneSurrogate(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return true;
                }
            }
        }
        return false;
    }
}
