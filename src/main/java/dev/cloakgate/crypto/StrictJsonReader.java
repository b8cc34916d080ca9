package dev.cloakgate.crypto;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads JSON the way evidence must be read: anything two readers could take differently is a defect. Unlike
 * a parser that stops at the first problem, it keeps going past duplicate keys, lone surrogates and bad
 * numbers so a verifier can report all of them; only unreadable text (bad UTF-8, broken syntax) ends the read.
 */
final class StrictJsonReader {

    private static final BigDecimal MAX_LONG = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal MIN_LONG = BigDecimal.valueOf(Long.MIN_VALUE);

    // Jackson's defaults already refuse comments, single quotes, leading zeros, NaN and raw control characters;
    // duplicate detection stays off so that duplicates are collected here instead of aborting the read.
    // (a factory is thread-safe once built, and building one per read cost more than a ledger entry's parse)
    private static final JsonFactory FACTORY = JsonFactory.builder().build();
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;

    /**
     * Where a value sits, as an RFC 6901 pointer rendered only when a defect names it: a verifier reads millions of
     * valid entries, and building each member's pointer text up front was a large part of reading one.
     */
    private record Where(Where parent, String name, int index) {
        static final Where ROOT = new Where(null, null, -1);

        Where member(String memberName) {
            return new Where(this, memberName, -1);
        }

        Where element(int i) {
            return new Where(this, null, i);
        }

        @Override
        public String toString() {
            if (parent == null) {
                return "";
            }
            return parent + "/" + (name != null ? pointerToken(name) : Integer.toString(index));
        }
    }

    StrictJson read(byte[] bytes) {
        List<JsonDefect> defects = new ArrayList<>();
        String text = decodeUtf8(bytes, defects);
        if (text == null) {
            return new StrictJson.Rejected(defects);
        }
        JsonNode value = null;
        try (JsonParser parser = FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                defects.add(new JsonDefect(JsonDefect.Kind.SYNTAX, "char 0", "no JSON value"));
                return new StrictJson.Rejected(defects);
            }
            value = readValue(parser, first, Where.ROOT, defects);
            if (parser.nextToken() != null) {
                defects.add(new JsonDefect(JsonDefect.Kind.TRAILING_CONTENT, at(parser.currentTokenLocation()),
                        "content after the JSON value"));
            }
        } catch (JsonProcessingException e) {
            defects.add(new JsonDefect(JsonDefect.Kind.SYNTAX, at(e.getLocation()), e.getOriginalMessage()));
        } catch (IOException e) {
            // a String source does no I/O; kept as a syntax defect rather than an unchecked surprise
            defects.add(new JsonDefect(JsonDefect.Kind.SYNTAX, "?", e.getMessage()));
        }
        return defects.isEmpty() ? new StrictJson.Parsed(value) : new StrictJson.Rejected(defects);
    }

    /** Strict UTF-8: the JDK decoder refuses overlong forms and encoded surrogates, and tells where. */
    private static String decodeUtf8(byte[] bytes, List<JsonDefect> defects) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isUnderflow()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            defects.add(new JsonDefect(JsonDefect.Kind.INVALID_UTF8, "byte " + in.position(),
                    result.length() + " byte(s) that are not UTF-8"));
            return null;
        }
        out.flip();
        return out.toString();
    }

    private JsonNode readValue(JsonParser parser, JsonToken token, Where path, List<JsonDefect> defects)
            throws IOException {
        switch (token) {
            case START_OBJECT: {
                ObjectNode object = nodes.objectNode();
                Set<String> seen = new HashSet<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    Where memberPath = path.member(name);
                    checkSurrogates(name, memberPath, "member name", defects);
                    JsonNode member = readValue(parser, parser.nextToken(), memberPath, defects);
                    if (!seen.add(name)) {
                        defects.add(new JsonDefect(JsonDefect.Kind.DUPLICATE_KEY, memberPath.toString(), "member name repeated"));
                    } else {
                        object.set(name, member);
                    }
                }
                return object;
            }
            case START_ARRAY: {
                ArrayNode array = nodes.arrayNode();
                JsonToken next;
                while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
                    array.add(readValue(parser, next, path.element(array.size()), defects));
                }
                return array;
            }
            case VALUE_STRING: {
                String text = parser.getText();
                checkSurrogates(text, path, "string", defects);
                return nodes.textNode(text);
            }
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return number(parser.getText(), path, defects);
            case VALUE_TRUE:
                return nodes.booleanNode(true);
            case VALUE_FALSE:
                return nodes.booleanNode(false);
            case VALUE_NULL:
                return nodes.nullNode();
            default:
                throw new IllegalStateException("unexpected token " + token + " at " + path);
        }
    }

    /**
     * RFC 8785 reads every number as an IEEE-754 double (I-JSON). The literal is kept only when the double
     * holds it meaningfully: overflow, underflow of a non-zero value, and integers past 2^53 are defects.
     */
    private JsonNode number(String literal, Where where, List<JsonDefect> defects) {
        if (isSafeInteger(literal)) {
            // what the checks below conclude for it, without BigDecimal: exact as a double, in long range
            return nodes.numberNode(Long.parseLong(literal));
        }
        BigDecimal exact;
        try {
            exact = new BigDecimal(literal);
        } catch (NumberFormatException e) {
            // an exponent beyond int range: certainly beyond a double
            defects.add(new JsonDefect(JsonDefect.Kind.NUMBER_OUT_OF_RANGE, where.toString(), "exponent out of range"));
            return nodes.numberNode(0);
        }
        double value = Double.parseDouble(literal);
        if (Double.isInfinite(value)) {
            defects.add(new JsonDefect(JsonDefect.Kind.NUMBER_OUT_OF_RANGE, where.toString(), "beyond the range of a double"));
            return nodes.numberNode(0);
        }
        if (value == 0 && exact.signum() != 0) {
            defects.add(new JsonDefect(JsonDefect.Kind.NUMBER_OUT_OF_RANGE, where.toString(), "non-zero number reads as 0"));
            return nodes.numberNode(0);
        }
        boolean integral = exact.signum() == 0 || exact.stripTrailingZeros().scale() <= 0;
        // 1e+23 and 295147905179352830000 are the canonical texts of doubles and fine; 9007199254740993 is
        // neither a double nor such a text: an exact-integer reader and a double reader would disagree on it
        if (integral && new BigDecimal(value).compareTo(exact) != 0
                && EcmaNumbers.shortestDecimal(Math.abs(value)).compareTo(exact.abs()) != 0) {
            defects.add(new JsonDefect(JsonDefect.Kind.NUMBER_UNREPRESENTABLE, where.toString(),
                    "integer not exactly representable as a double"));
        }
        if (integral && exact.compareTo(MIN_LONG) >= 0 && exact.compareTo(MAX_LONG) <= 0) {
            return nodes.numberNode(exact.longValueExact()); // -0 and -0.0 land here as 0, as RFC 8785 prints them
        }
        return nodes.numberNode(value);
    }

    /** At most 15 digits (below 2^53, so every one is exactly a double), optionally signed: no fraction or exponent. */
    private static boolean isSafeInteger(String literal) {
        int start = literal.startsWith("-") ? 1 : 0;
        int digits = literal.length() - start;
        if (digits < 1 || digits > 15) {
            return false;
        }
        for (int i = start; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static void checkSurrogates(String s, Where path, String what, List<JsonDefect> defects) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                defects.add(new JsonDefect(JsonDefect.Kind.LONE_SURROGATE, path.toString(),
                        String.format("%s holds unpaired surrogate U+%04X at index %d", what, (int) c, i)));
                return;
            }
        }
    }

    /** RFC 6901 escaping; a lone surrogate in a name is shown escaped so the report itself stays valid text. */
    private static String pointerToken(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '~') {
                out.append("~0");
            } else if (c == '/') {
                out.append("~1");
            } else if (Character.isSurrogate(c) && !pairedAt(name, i)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean pairedAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private static String at(JsonLocation location) {
        return location == null ? "?" : "char " + location.getCharOffset();
    }
}
