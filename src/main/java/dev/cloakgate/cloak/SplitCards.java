package dev.cloakgate.cloak;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Card numbers split over sibling JSON values ({@code ["4111","1111","1111","1111"]},
 * {@code {"card_1": "4111 1111", "card_2": "1111 1111"}}), which no single string holds whole. Consecutive
 * siblings that are only digit groups are joined, and a join the card detector accepts (Luhn, issuer, length) is
 * a card when there is card context: a key that names a card (the container's, or each part's with its part
 * number: {@code card_1}, {@code pan2}), or, in an array where there are no keys, exactly four strings of four
 * digits standing alone (the way a card is printed), so arrays of years or ids are not read as cards. Each part
 * then becomes a CREDIT_CARD token of its own, so the tool still gets every part back as it was written.
 */
final class SplitCards {
    /** Siblings looked at together at most: a huge array of digit strings costs bounded memory. */
    static final int MAX_RUN = 64;
    private static final int MAX_DIGITS = 19;
    private static final int MIN_DIGITS = 13;
    private static final Runnable NOTHING = () -> {
    };

    /** A sibling that is only digit groups: its digits, whether it is a string, whether a key names a card. */
    record Part(String digits, boolean string, boolean hinted) {
    }

    private SplitCards() {
    }

    /**
     * The parts {@code [from, to)} of a run of consecutive parts that each form one card. {@code inArray}: the run
     * is array elements, where no key can say what they are, so the printed shape alone is context; in an object
     * the keys are the context.
     */
    static List<int[]> cards(List<Part> run, boolean inArray, Detection d) {
        List<int[]> out = new ArrayList<>();
        if (run.size() < 2) {
            return out;
        }
        if (inArray && run.size() == 4 && printed(run) && d.isWhole(Category.CREDIT_CARD, join(run, 0, 4))) {
            out.add(new int[] { 0, 4 });
            return out;
        }
        int g = 0;
        while (g < run.size()) {
            int taken = -1;
            int total = 0;
            int last = g;
            while (last < run.size() && run.get(last).hinted() && total + run.get(last).digits().length() <= MAX_DIGITS) {
                total += run.get(last).digits().length();
                last++;
            }
            for (int k = last; k > g + 1 && taken < 0; k--) {
                String digits = join(run, g, k);
                if (digits.length() < MIN_DIGITS) {
                    break;
                }
                if (d.isWhole(Category.CREDIT_CARD, digits)) {
                    out.add(new int[] { g, k });
                    taken = k;
                }
            }
            g = taken >= 0 ? taken : g + 1;
        }
        return out;
    }

    /** Four strings of four digits: a card as it is printed, card context enough without a key. */
    private static boolean printed(List<Part> run) {
        for (Part p : run) {
            if (!p.string() || p.digits().length() != 4) {
                return false;
            }
        }
        return true;
    }

    private static String join(List<Part> run, int from, int to) {
        StringBuilder b = new StringBuilder(MAX_DIGITS);
        for (int i = from; i < to; i++) {
            b.append(run.get(i).digits());
        }
        return b.toString();
    }

    /**
     * The ASCII digits of a value that is nothing but digit groups ({@code 4111}, {@code 4111 1111},
     * {@code ４１１１}, read through {@link NormalizedText}), or null.
     */
    static String digitsOf(String value) {
        if (!mayBePart(value)) {
            return null;
        }
        String v = NormalizedText.of(value).text().strip();
        StringBuilder d = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c >= '0' && c <= '9') {
                d.append(c);
            } else if (!((c == ' ' || c == '-' || c == '.') && i > 0 && i + 1 < v.length()
                    && Character.isDigit(v.charAt(i - 1)) && Character.isDigit(v.charAt(i + 1)))) {
                return null;
            }
        }
        return d.length() == 0 || d.length() > MAX_DIGITS ? null : d.toString();
    }

    /**
     * A cheap first test on a value's characters: at most 64 of them, and no ASCII character that cannot be part
     * of digits written some way (digits, separators, the characters of %XX and &#NN; escapes). Most strings fail
     * at their first letter, before anything is normalised or copied.
     */
    static boolean mayBePart(String value) {
        int length = value.length();
        if (length == 0 || length > MAX_PART) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (!partChar(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The longest value, as written, that may be a part. */
    static final int MAX_PART = 64;

    /** A character a part may hold as written: not an ASCII letter beyond hex and 'x', nor most punctuation. */
    static boolean partChar(char c) {
        return c >= 0x80 || (c >= '0' && c <= '9') || c == ' ' || c == '-' || c == '.' || c == '%' || c == '&'
                || c == '#' || c == ';' || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f') || c == 'x';
    }

    /** Whether a key names a card, with a part number after it or not: card, card_1, pan2, cardNumberPart3. */
    static boolean namesCard(String key, Detection d) {
        if (key == null || !(contains(key, "card") || contains(key, "pan") || contains(key, "cc"))) {
            return false; // the card keys all hold one of these: most keys stop here, before any copy
        }
        String k = key;
        for (int round = 0; round < 2; round++) {
            int e = k.length();
            while (e > 0 && (Character.isDigit(k.charAt(e - 1)) || !Character.isLetterOrDigit(k.charAt(e - 1)))) {
                e--;
            }
            k = k.substring(0, e);
            if (d.hintFor(k) == Category.CREDIT_CARD) {
                return true;
            }
            String lower = k.toLowerCase(java.util.Locale.ROOT);
            for (String suffix : new String[] { "part", "group", "block", "segment" }) {
                if (lower.endsWith(suffix)) {
                    k = k.substring(0, k.length() - suffix.length());
                }
            }
        }
        return d.hintFor(key) == Category.CREDIT_CARD;
    }

    private static boolean contains(String s, String lowerWord) {
        for (int i = 0; i + lowerWord.length() <= s.length(); i++) {
            if (s.regionMatches(true, i, lowerWord, 0, lowerWord.length())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The typed walk's side: decides on a container's values as the upstream wrote them, before its children are
     * walked (the walk may turn one part into something else, "0510 5100" into a phone token), and returns what to
     * do once they are: each part of each card replaced by its CREDIT_CARD token, the card counted once.
     */
    static Runnable find(JsonNode node, String key, Detection d, Vault vault, String upstream, Counts counts) {
        if (!(node instanceof ObjectNode || node instanceof ArrayNode) || node.size() < 2) {
            return NOTHING;
        }
        Boolean containerHinted = null;
        boolean inArray = node instanceof ArrayNode;
        List<Part> run = null; // made when the first part turns up: most containers have none
        List<Object> where = null;
        List<String> written = null;
        List<Object[]> replace = new ArrayList<>(0);
        int[] cards = { 0 };
        Iterator<Map.Entry<String, JsonNode>> fields = node instanceof ObjectNode o ? o.fields() : null;
        int size = node.size();
        for (int i = 0; i < size; i++) {
            String name = null;
            JsonNode v;
            if (fields != null) {
                Map.Entry<String, JsonNode> e = fields.next();
                name = e.getKey();
                v = e.getValue();
            } else {
                v = node.get(i);
            }
            String digits = null;
            boolean hinted = false;
            if (v.isTextual()) {
                digits = digitsOf(v.textValue());
            } else if (v.isIntegralNumber() && v.canConvertToLong() && v.longValue() >= 0) {
                // a bare number is a part only under a card's key
                containerHinted = containerHinted != null ? containerHinted : namesCard(key, d);
                hinted = containerHinted || namesCard(name, d);
                digits = hinted ? v.asText() : null;
            }
            if (digits == null || digits.length() > MAX_DIGITS) {
                if (run != null) {
                    flush(run, inArray, where, written, replace, cards, d);
                }
                continue;
            }
            if (v.isTextual()) {
                containerHinted = containerHinted != null ? containerHinted : namesCard(key, d);
                hinted = containerHinted || namesCard(name, d);
            }
            if (run == null) {
                run = new ArrayList<>();
                where = new ArrayList<>();
                written = new ArrayList<>();
            }
            run.add(new Part(digits, v.isTextual(), hinted));
            where.add(name != null ? name : i);
            written.add(v.isTextual() ? v.textValue() : v.asText());
            if (run.size() == MAX_RUN) {
                flush(run, inArray, where, written, replace, cards, d);
            }
        }
        if (run != null) {
            flush(run, inArray, where, written, replace, cards, d);
        }
        if (replace.isEmpty()) {
            return NOTHING;
        }
        return () -> {
            for (Object[] r : replace) {
                TextNode token = TextNode.valueOf(vault.tokenFor(Category.CREDIT_CARD, (String) r[1], upstream));
                if (node instanceof ObjectNode o && r[0] instanceof String name && o.has(name)) {
                    o.set(name, token);
                } else if (node instanceof ArrayNode a && r[0] instanceof Integer index) {
                    a.set(index, token);
                }
            }
            for (int c = 0; c < cards[0]; c++) {
                counts.cloaked(Category.CREDIT_CARD);
            }
        };
    }

    private static void flush(List<Part> run, boolean inArray, List<Object> where, List<String> written,
            List<Object[]> replace, int[] cards, Detection d) {
        for (int[] card : cards(run, inArray, d)) {
            for (int x = card[0]; x < card[1]; x++) {
                replace.add(new Object[] { where.get(x), written.get(x) });
            }
            cards[0]++;
        }
        run.clear();
        where.clear();
        written.clear();
    }

    /**
     * The same over JSON text (a tool that returns a document as text), fed token by token by
     * {@link StructuredText}: each part of a card becomes a CREDIT_CARD finding at its exact span in the text.
     */
    static final class InText {
        private final Detection d;
        private final List<Finding> out;
        private final Deque<Level> levels = new ArrayDeque<>();

        private static final class Level {
            final String key;
            final boolean array;
            Boolean hinted;
            final List<Part> run = new ArrayList<>(4);
            final List<int[]> spans = new ArrayList<>(4);

            Level(String key, boolean array) {
                this.key = key;
                this.array = array;
            }
        }

        InText(Detection d, List<Finding> out) {
            this.d = d;
            this.out = out;
        }

        /** An object or array opens under {@code key} (the nearest field name above it). */
        void open(String key, boolean array) {
            other();
            levels.push(new Level(key, array));
        }

        void close() {
            other();
            levels.poll();
        }

        /** A scalar that cannot be a part (or a container): the run before it ends. */
        void other() {
            Level l = levels.peek();
            if (l == null || l.run.isEmpty()) {
                return;
            }
            for (int[] card : cards(l.run, l.array, d)) {
                for (int x = card[0]; x < card[1]; x++) {
                    out.add(new Finding(Category.CREDIT_CARD, l.spans.get(x)[0], l.spans.get(x)[1]));
                }
            }
            l.run.clear();
            l.spans.clear();
        }

        /** Whether a value under field {@code name} (null in an array) has a key that names a card. */
        boolean hinted(String name) {
            Level l = levels.peek();
            if (l == null) {
                return false;
            }
            if (l.hinted == null) {
                l.hinted = namesCard(l.key, d);
            }
            return l.hinted || namesCard(name, d);
        }

        /** A string or integer value at {@code [start, end)} of the text, under field {@code name} (null in an array). */
        void value(String name, String value, boolean string, int start, int end) {
            Level l = levels.peek();
            if (l == null) {
                return;
            }
            String digits = string ? digitsOf(value) : value.startsWith("-") ? null : value;
            if (digits == null || digits.length() > MAX_DIGITS || end <= start) {
                other();
                return;
            }
            boolean hinted = hinted(name);
            if (!hinted && !string) {
                other(); // a bare number is a part only under a card's key
                return;
            }
            l.run.add(new Part(digits, string, hinted));
            l.spans.add(new int[] { start, end });
            if (l.run.size() == MAX_RUN) {
                other();
            }
        }
    }
}
