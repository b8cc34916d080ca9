package dev.cloakgate.tenant;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What is wrong with a tenant file that is not JSON, said as a person would fix it: where (line and column) and
 * what (a trailing comma, an unterminated string, a single quote, ...). It names the kind of token found, never the
 * file's text: the parser's own messages quote the offending token, and a tenant file holds credentials.
 */
final class JsonSyntax {
    private static final ObjectMapper STRICT = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonSyntax() {
    }

    /** "line L, column C: what", or null when the syntax is fine (the problem is elsewhere: depth, size, a surrogate). */
    static String describe(byte[] bytes) {
        try {
            STRICT.readTree(bytes);
            return null;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String what = what(e, bytes, at == null ? -1 : (int) at.getByteOffset());
            return at == null ? what : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": " + what;
        } catch (IOException e) {
            return "unreadable";
        }
    }

    // the parser's message is read to classify, never passed on: it quotes the offending token
    private static String what(JsonProcessingException e, byte[] bytes, int offset) {
        String m = String.valueOf(e.getOriginalMessage());
        if (e instanceof JsonEOFException) {
            return m.contains("VALUE_STRING") || m.contains("String value") || m.contains("field name")
                    ? "the file ends inside a string: an unterminated string (a missing closing \")"
                    : "the file ends before every { and [ is closed";
        }
        int ch = offset >= 0 && offset < bytes.length ? bytes[offset] & 0xff : -1;
        if (m.startsWith("Unexpected character")) {
            int before = previousNonBlank(bytes, offset);
            if ((ch == '}' || ch == ']') && before == ',') {
                return "a trailing comma before " + (ch == '}' ? "}" : "]") + " (JSON allows none)";
            }
            if (ch == ',' && before == ',') {
                return "two commas in a row";
            }
            if (ch == '\'') {
                return "a single quote: JSON strings and keys take double quotes";
            }
            if (ch == '/' || ch == '#') {
                return "a comment: JSON has none";
            }
            if (m.contains("in numeric value")) {
                return "a malformed number";
            }
            if (m.contains("expecting comma")) {
                return "a missing comma between two entries (found " + kind(ch) + ")";
            }
            if (m.contains("expecting a colon")) {
                return "a missing colon between a key and its value (found " + kind(ch) + ")";
            }
            if (m.contains("start field name")) {
                return "a key must be a string in double quotes (found " + kind(ch) + ")";
            }
            return "an unexpected " + kind(ch);
        }
        if (m.startsWith("Unexpected close marker")) {
            return "a closing " + (ch == ']' ? "]" : "}") + " with nothing open to close";
        }
        if (m.startsWith("Unrecognized token")) {
            return "an unquoted word: strings take double quotes; the only bare words are true, false and null";
        }
        if (m.startsWith("Non-standard token")) {
            return "NaN or Infinity, which JSON does not allow";
        }
        if (m.startsWith("Trailing token")) {
            return "content after the end of the JSON document";
        }
        if (m.startsWith("Illegal unquoted character")) {
            return "a control character (a raw line break or tab) inside a string: write it as \\n or \\t";
        }
        if (m.startsWith("Unrecognized character escape")) {
            return "an invalid escape in a string (a backslash before a character JSON does not escape)";
        }
        if (m.contains("Leading zeroes")) {
            return "a number with a leading zero";
        }
        if (m.startsWith("Invalid numeric value")) {
            return "a malformed number";
        }
        if (m.startsWith("Duplicate field")) {
            return "a duplicate key";
        }
        if (m.contains("Invalid UTF-8")) {
            return "bytes that are not UTF-8 text";
        }
        return "malformed JSON";
    }

    private static int previousNonBlank(byte[] bytes, int offset) {
        for (int i = Math.min(offset, bytes.length) - 1; i >= 0; i--) {
            int b = bytes[i] & 0xff;
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return b;
            }
        }
        return -1;
    }

    /** The kind of token a character starts, named without quoting anything but JSON's own punctuation. */
    private static String kind(int ch) {
        return switch (ch) {
            case -1 -> "the end of the file";
            case '{' -> "an opening {";
            case '}' -> "a closing }";
            case '[' -> "an opening [";
            case ']' -> "a closing ]";
            case ',' -> "a comma";
            case ':' -> "a colon";
            case '"' -> "a string";
            default -> Character.isLetter(ch) ? "a letter" : Character.isDigit(ch) || ch == '-' ? "a number"
                    : ch >= 0x80 ? "a non-ASCII character" : ch < 0x20 ? "a control character" : "a punctuation character";
        };
    }
}
