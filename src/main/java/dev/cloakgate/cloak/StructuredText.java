package dev.cloakgate.cloak;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.base.ParserBase;

/**
 * Key hints inside text that is itself structured: a tool that returns a JSON document or a CSV export as
 * text. The text is never rewritten here; values under hinted keys or columns become findings at their exact
 * offsets, so the rest of the text stays byte for byte as the upstream wrote it.
 */
final class StructuredText {
    private static final JsonFactory JSON = new JsonFactory();
    private static final int MAX = 8 << 20;

    private StructuredText() {
    }

    static void hints(String text, Detection d, List<Finding> out) {
        int n = text.length();
        if (n < 8 || n > MAX) {
            return;
        }
        int i = 0;
        while (i < n && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        if (i == n) {
            return;
        }
        char c = text.charAt(i);
        if (c == '{' || c == '[') {
            json(text, d, out);
            return;
        }
        if (text.indexOf('\n') > 0) {
            csv(text, d, out);
        }
        inline(text, d, out);
    }

    /**
     * {@code key: value} and {@code key=value} in free text (YAML, logs, .env files, code, JSON fragments in
     * prose): a value after a hinted key is checked with the hinted test. Each ':' or '=' costs a short look
     * back for the key, so the pass stays linear.
     */
    private static void inline(String text, Detection d, List<Finding> out) {
        int n = text.length();
        for (int i = 1; i < n; i++) {
            char c = text.charAt(i);
            if (c != ':' && c != '=') {
                continue;
            }
            int keyEnd = i;
            while (keyEnd > 0 && (text.charAt(keyEnd - 1) == ' ' || text.charAt(keyEnd - 1) == '"'
                    || text.charAt(keyEnd - 1) == '\'')) {
                keyEnd--;
                if (i - keyEnd > 3) {
                    break;
                }
            }
            int keyStart = keyEnd;
            while (keyStart > 0 && keyEnd - keyStart < 40 && keyChar(text.charAt(keyStart - 1))) {
                keyStart--;
            }
            if (keyStart == keyEnd) {
                continue;
            }
            Category cat = d.hintFor(text.substring(keyStart, keyEnd));
            if (cat == null) {
                continue;
            }
            int v = i + 1;
            while (v < n && (text.charAt(v) == ' ' || text.charAt(v) == '\t')) {
                v++;
            }
            char quote = v < n && (text.charAt(v) == '"' || text.charAt(v) == '\'') ? text.charAt(v) : 0;
            if (quote != 0) {
                v++;
            }
            int e = v;
            while (e < n && e - v < 200) {
                char x = text.charAt(e);
                if (quote != 0 ? x == quote : (x == '\n' || x == '\r' || x == ',' || x == ';' || x == '|' || x == '}'
                        || x == ']' || x == '\t' || x == '"' || x == '&' || (x == ' ' && cat != Category.PERSON))) {
                    break;
                }
                e++;
            }
            int ve = e;
            while (ve > v && (text.charAt(ve - 1) == ' ' || text.charAt(ve - 1) == '.')) {
                ve--;
            }
            if (ve > v && d.acceptsHinted(cat, text.substring(v, ve))) {
                out.add(new Finding(cat, v, ve));
            }
            i = Math.max(i, e - 1);
        }
    }

    private static boolean keyChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
                || c == '.';
    }

    private static void json(String text, Detection d, List<Finding> out) {
        SplitCards.InText split = new SplitCards.InText(d, out);
        try (JsonParser p = JSON.createParser(text)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                splitCards(text, p, t, split);
                if (t != JsonToken.VALUE_STRING && t != JsonToken.VALUE_NUMBER_INT) {
                    continue;
                }
                Category cat = d.hintFor(key(p.getParsingContext()));
                if (cat == null) {
                    continue;
                }
                String value = p.getText();
                int off = (int) p.getTokenLocation().getCharOffset();
                if (t == JsonToken.VALUE_STRING) {
                    off++;
                }
                int end = off + value.length();
                // only when the text holds the value verbatim (no escapes), so the offsets are exact
                if (off > 0 && end <= text.length() && text.regionMatches(off, value, 0, value.length())
                        && d.acceptsHinted(cat, value)) {
                    out.add(new Finding(cat, off, end));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not JSON after all, or truncated: what was found so far stands
        }
    }

    /** Feeds a card split over sibling values ({@link SplitCards}) with the parser's tokens and their spans. */
    private static void splitCards(String text, JsonParser p, JsonToken t, SplitCards.InText split) throws IOException {
        switch (t) {
            case START_OBJECT, START_ARRAY -> split.open(key(p.getParsingContext()), t == JsonToken.START_ARRAY);
            case END_OBJECT, END_ARRAY -> split.close();
            case VALUE_STRING -> {
                int start = tokenStart(p) + 1;
                if (!rawMayBePart(text, start)) {
                    split.other(); // most strings: rejected on their first characters as written, never decoded
                    return;
                }
                String v = p.getText();
                split.value(p.currentName(), v, true, start, (int) p.currentLocation().getCharOffset() - 1);
            }
            case VALUE_NUMBER_INT -> {
                if (p.getTextLength() > 19 || !split.hinted(p.currentName())) {
                    split.other(); // a bare number is a part only under a card's key
                    return;
                }
                split.value(p.currentName(), p.getText(), false, tokenStart(p), (int) p.currentLocation().getCharOffset());
            }
            case FIELD_NAME -> {
                // a key is not a sibling value
            }
            default -> split.other();
        }
    }

    /**
     * Where the current token starts in the text, read without building a location for every value (the parser
     * counts one past it, as its own currentTokenLocation() corrects).
     */
    private static int tokenStart(JsonParser p) {
        return (int) (p instanceof ParserBase b ? b.getTokenCharacterOffset() - 1 : p.currentTokenLocation().getCharOffset());
    }

    /**
     * Whether the string literal whose content starts at {@code from} of the text may be a card's part, read as
     * written: an escape ({@code \u0034}) defers to the parser's reading.
     */
    private static boolean rawMayBePart(String text, int from) {
        for (int i = from; i < text.length() && i - from <= SplitCards.MAX_PART; i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                return true;
            }
            if (c == '"') {
                return i > from;
            }
            if (!SplitCards.partChar(c)) {
                return false;
            }
        }
        return false;
    }

    private static String key(JsonStreamContext ctx) {
        JsonStreamContext c = ctx;
        while (c != null) {
            if (c.getCurrentName() != null) {
                return c.getCurrentName();
            }
            c = c.getParent();
        }
        return null;
    }

    /** A CSV/TSV export: the header is one of the first few lines, its hinted columns are checked below it. */
    private static void csv(String text, Detection d, List<Finding> out) {
        int lineStart = 0;
        for (int line = 0; line < 5 && lineStart < text.length(); line++) {
            int lineEnd = text.indexOf('\n', lineStart);
            if (lineEnd < 0) {
                return;
            }
            if (csvFrom(text, lineStart, lineEnd, d, out)) {
                return;
            }
            lineStart = lineEnd + 1;
        }
    }

    private static boolean csvFrom(String text, int headerStart, int headerEnd, Detection d, List<Finding> out) {
        String header = text.substring(headerStart, headerEnd);
        char delim = delimiter(header);
        if (delim == 0) {
            return false;
        }
        Map<Integer, Category> hinted = new HashMap<>();
        int[] col = { 0 };
        cells(text, headerStart, headerEnd, delim, (start, end) -> {
            Category c = d.hintFor(text.substring(start, end).strip().replace("\"", ""));
            if (c != null) {
                hinted.put(col[0], c);
            }
            col[0]++;
        });
        if (hinted.isEmpty() || col[0] < 2) {
            return false;
        }
        int lineStart = headerEnd + 1;
        while (lineStart < text.length()) {
            int nl = text.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? text.length() : nl;
            int[] k = { 0 };
            cells(text, lineStart, lineEnd, delim, (start, end) -> {
                Category c = hinted.get(k[0]++);
                if (c == null) {
                    return;
                }
                int s = start;
                int e = end;
                while (s < e && (text.charAt(s) == ' ' || text.charAt(s) == '"')) {
                    s++;
                }
                while (e > s && (text.charAt(e - 1) == ' ' || text.charAt(e - 1) == '"' || text.charAt(e - 1) == '\r')) {
                    e--;
                }
                if (e > s && d.acceptsHinted(c, text.substring(s, e))) {
                    out.add(new Finding(c, s, e));
                }
            });
            lineStart = lineEnd + 1;
        }
        return true;
    }

    private interface Cell {
        void at(int start, int end);
    }

    /** Cells of one line, honouring double quotes around a cell. */
    private static void cells(String text, int from, int to, char delim, Cell cell) {
        int start = from;
        boolean quoted = false;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == delim && !quoted) {
                cell.at(start, i);
                start = i + 1;
            }
        }
        cell.at(start, to);
    }

    private static char delimiter(String header) {
        char best = 0;
        int bestCount = 0;
        for (char c : new char[] { ',', ';', '\t', '|' }) {
            int count = 0;
            for (int i = 0; i < header.length(); i++) {
                if (header.charAt(i) == c) {
                    count++;
                }
            }
            if (count > bestCount) {
                best = c;
                bestCount = count;
            }
        }
        return best;
    }
}
