package dev.cloakgate.crypto;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;

/**
 * RFC 8785 JSON Canonicalization Scheme: the one byte form of a JSON value that signatures and hashes are
 * computed over. Members sorted by UTF-16 code units, no whitespace, strings with only the required
 * escapes, numbers in ECMAScript form (via their double value, as I-JSON reads them).
 */
public final class Jcs {

    private Jcs() {
    }

    /**
     * The canonical UTF-8 bytes of {@code value}. Numbers are taken as the double nearest them, so a lax
     * tree holding 9007199254740993 canonicalises as 9007199254740992; use {@link #parseStrict} to refuse
     * such input instead. Refuses what has no canonical form: NaN, infinities (also big numbers that
     * overflow a double), lone surrogates, and non-JSON nodes.
     */
    public static byte[] canonicalize(JsonNode value) {
        StringBuilder out = new StringBuilder(512);
        write(value, out, Where.ROOT);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Reads {@code bytes} strictly, reporting every defect it can see rather than only the first. */
    public static StrictJson parseStrict(byte[] bytes) {
        return new StrictJsonReader().read(bytes);
    }

    /** True when the bytes are a strictly valid JSON value that re-canonicalises to exactly themselves. */
    public static boolean isCanonical(byte[] bytes) {
        return check(bytes).isEmpty();
    }

    /** Every defect that keeps {@code bytes} from being canonical JSON; empty when they are. */
    public static List<JsonDefect> check(byte[] bytes) {
        StrictJson read = parseStrict(bytes);
        if (read instanceof StrictJson.Rejected rejected) {
            return rejected.defects();
        }
        byte[] canonical = canonicalize(((StrictJson.Parsed) read).value());
        if (Arrays.equals(canonical, bytes)) {
            return List.of();
        }
        int at = Arrays.mismatch(canonical, bytes);
        return List.of(new JsonDefect(JsonDefect.Kind.NOT_CANONICAL, "byte " + at,
                "differs from the RFC 8785 form from this byte on"));
    }

    /** Where a value sits (for error messages), as text only when an error needs it. */
    private record Where(Where parent, String name, int index) {
        static final Where ROOT = new Where(null, null, -1);

        @Override
        public String toString() {
            if (parent == null) {
                return "";
            }
            return parent + "/" + (name != null ? name : Integer.toString(index));
        }
    }

    // 2^53: every long within it is exactly a double, and ECMAScript prints such a double as the integer's digits
    private static final long SAFE_INTEGER = 1L << 53;

    private static void write(JsonNode node, StringBuilder out, Where path) {
        JsonNodeType type = node.getNodeType();
        switch (type) {
            case OBJECT: {
                List<String> names = new ArrayList<>(node.size());
                for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                    names.add(it.next());
                }
                // String.compareTo compares UTF-16 code units, which is exactly the RFC 8785 order
                names.sort(null);
                out.append('{');
                for (int i = 0; i < names.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    String name = names.get(i);
                    Where memberPath = new Where(path, name, -1);
                    writeString(name, out, memberPath);
                    out.append(':');
                    write(node.get(name), out, memberPath);
                }
                out.append('}');
                return;
            }
            case ARRAY: {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(node.get(i), out, new Where(path, null, i));
                }
                out.append(']');
                return;
            }
            case STRING:
                writeString(node.textValue(), out, path);
                return;
            case NUMBER:
                if (node.isInt() || node.isLong()) {
                    long l = node.longValue();
                    if (l >= -SAFE_INTEGER && l <= SAFE_INTEGER) {
                        out.append(l); // what EcmaNumbers.format((double) l) prints, without the digit search
                        return;
                    }
                }
                out.append(EcmaNumbers.format(doubleOf(node, path)));
                return;
            case BOOLEAN:
                out.append(node.booleanValue() ? "true" : "false");
                return;
            case NULL:
                out.append("null");
                return;
            default:
                throw new IllegalArgumentException("no JSON form for a " + type + " node at " + path);
        }
    }

    private static double doubleOf(JsonNode number, Where path) {
        double value = number.isBigDecimal() || number.isBigInteger()
                // through the decimal text, so the double is the correctly rounded one
                ? Double.parseDouble(number.numberValue().toString())
                : number.doubleValue();
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("number at " + path + " has no JSON form as a double: " + number);
        }
        return value;
    }

    /** RFC 8785 section 3.2.2.2: escape '"', '\\' and controls, nothing else; controls use short forms first. */
    private static void writeString(String s, StringBuilder out, Where path) {
        out.append('"');
        if (plain(s)) {
            out.append(s).append('"'); // nothing to escape or check: the loop below would copy it char by char
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        throw new IllegalArgumentException("string at " + path + " holds an unpaired surrogate");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** No character the loop in {@link #writeString} treats specially: no quote, backslash, control or surrogate. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
