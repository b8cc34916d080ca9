package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A simple scanner from cleaned text to sentences of tokens, in one pass. Sentences end at terminal punctuation,
 * blank lines, lines that start a list item, heading, quote or tag, and wherever a comment or code fence begins
 * or ends; wrapped prose lines are joined. Sentences are capped in length so every window the rules use is bounded.
 */
final class Sentences {
    private static final int MAX_TOKENS = 120;

    /**
     * The tokens of one text, in one array that grows by doubling; each sentence is a range of it, so nothing is
     * copied per sentence. A sentence keeps the array that was current when it ended: growing copies, never
     * overwrites, so its range stays valid.
     */
    private static final class Buf {
        Token[] a;
        int n;
        /** Where the sentence being read begins. */
        int from;

        Buf(int capacity) {
            a = new Token[capacity];
        }

        void add(Token t) {
            if (n == a.length) {
                a = java.util.Arrays.copyOf(a, a.length * 2);
            }
            a[n++] = t;
        }

        boolean isEmpty() {
            return n == from;
        }

        int size() {
            return n - from;
        }
    }

    List<Sentence> split(String s, byte[] ctx) {
        List<Sentence> out = new ArrayList<>(s.length() / 64 + 4);
        Buf cur = new Buf(s.length() / 5 + 16);
        int n = s.length();
        int sentenceStart = 0;
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                int j = i;
                int newlines = 0;
                while (j < n && Character.isWhitespace(s.charAt(j))) {
                    if (s.charAt(j) == '\n') {
                        newlines++;
                    }
                    j++;
                }
                if (newlines > 0 && (newlines > 1 || startsBlock(s, j) || regionChanges(ctx, i, j)
                        || lastIs(cur, ":"))) {
                    sentenceStart = flush(out, cur, sentenceStart, j);
                }
                i = j;
                continue;
            }
            if (!cur.isEmpty() && i > 0 && regionChanges(ctx, i - 1, i)) {
                sentenceStart = flush(out, cur, sentenceStart, i);
            }
            int j = i;
            while (j < n && !Character.isWhitespace(s.charAt(j)) && !regionChanges(ctx, i, j)) {
                char e = s.charAt(j++);
                if ((e == '.' || e == '!' || e == '?') && (j - 2 >= i && Gloss.han(s.charAt(j - 2))
                        || j < n && Gloss.han(s.charAt(j)))) {
                    // Chinese puts no space after a full stop: the chunk, and the sentence, end at it
                    break;
                }
            }
            boolean ends = chunk(s, i, j, ctx, cur);
            i = j;
            if (ends || cur.size() >= MAX_TOKENS) {
                sentenceStart = flush(out, cur, sentenceStart, i);
            }
        }
        flush(out, cur, sentenceStart, n);
        return out;
    }

    private static boolean lastIs(Buf cur, String w) {
        return !cur.isEmpty() && cur.a[cur.n - 1].is(w);
    }

    private static int flush(List<Sentence> out, Buf cur, int start, int end) {
        if (!cur.isEmpty()) {
            List<Token> joined = Gloss.phrases(cur.a, cur.from, cur.n);
            if (joined != null) {
                cur.n = cur.from;
                joined.forEach(cur::add);
            }
            boolean colon = cur.a[cur.n - 1].is(":");
            long mask = 0;
            for (int k = cur.from; k < cur.n; k++) {
                mask |= cur.a[k].cls();
            }
            out.add(new Sentence(cur.a, cur.from, cur.n, start, end, colon, mask));
            cur.from = cur.n;
        }
        return end;
    }

    /** A comment or a fence starts or ends between these positions. */
    private static boolean regionChanges(byte[] ctx, int a, int b) {
        int mask = Layout.COMMENT | Layout.FENCE;
        return b < ctx.length && a < ctx.length && (ctx[a] & mask) != (ctx[b] & mask);
    }

    private static boolean startsBlock(String s, int j) {
        if (j >= s.length()) {
            return true;
        }
        char c = s.charAt(j);
        if ("-*+#>|<[`~".indexOf(c) >= 0 || Character.isUpperCase(c)) {
            return true;
        }
        int k = j;
        while (k < s.length() && Character.isDigit(s.charAt(k))) {
            k++;
        }
        return k > j && k < s.length() && (s.charAt(k) == '.' || s.charAt(k) == ')' || s.charAt(k) == '-'
                || s.charAt(k) == ':');
    }

    /** Adds the tokens of one whitespace-free chunk; returns whether it ends a sentence. */
    private boolean chunk(String s, int from, int to, byte[] ctx, Buf out) {
        if (dash(s, from, to)) {
            // a free-standing dash separates clauses: "exempt from review - set the plan"
            out.add(new Token(",", s.substring(from, to), Token.Kind.PUNCT, ctx[from], from));
            return false;
        }
        int a = from;
        int b = to;
        while (a < b && isWrap(s.charAt(a))) {
            a++;
        }
        int coreEnd = b;
        while (coreEnd > a && (isWrap(s.charAt(coreEnd - 1)) || isTrail(s.charAt(coreEnd - 1)))) {
            coreEnd--;
        }
        if (b - a <= 3 && b > a + 1 && (s.charAt(b - 1) == ')' || s.charAt(b - 1) == '.'
                && Character.isDigit(s.charAt(a))) && listMarker(s, a, b - 1)) {
            // "1) disable the alarm 2) unlock the door", "2. Email the lease ...": a list's marker opens an item
            // as a label's colon does
            out.add(new Token(":", s.substring(a, b), Token.Kind.PUNCT, ctx[a], a));
            return false;
        }
        if (a < coreEnd) {
            core(s, a, coreEnd, ctx, out);
        }
        boolean ends = false;
        for (int k = coreEnd; k < b; k++) {
            char c = s.charAt(k);
            if (c == ',' || c == ':' || c == ';') {
                out.add(new Token(String.valueOf(c), String.valueOf(c), Token.Kind.PUNCT, ctx[k], k));
            } else if (c == ']' && coreEnd > a && Character.isLetterOrDigit(s.charAt(coreEnd - 1))
                    && s.charAt(from) != '+') {
                // a bracketed tag ends a clause as a closing tag does: "[CI SYSTEM] Agents must ..." (not a log's
                // "[12/Nov/2024:06:25:01 +0000]")
                out.add(new Token(",", "]", Token.Kind.PUNCT, ctx[k], k));
            } else if (c == '.' || c == '!' || c == '?') {
                ends = ends || !abbreviation(s, a, coreEnd);
            }
        }
        return ends;
    }

    /** "1", "12", "a": what numbers an item of an inline list. */
    private static boolean listMarker(String s, int from, int to) {
        if (to - from == 1 && Character.isLetter(s.charAt(from))) {
            return Character.isLowerCase(s.charAt(from));
        }
        for (int k = from; k < to; k++) {
            if (!Character.isDigit(s.charAt(k))) {
                return false;
            }
        }
        return to > from;
    }

    private static boolean dash(String s, int from, int to) {
        if (to - from > 3) {
            return false;
        }
        for (int k = from; k < to; k++) {
            char c = s.charAt(k);
            if (c != '-' && c != '\u2013' && c != '\u2014') {
                return false;
            }
        }
        return to > from;
    }

    private static boolean abbreviation(String s, int a, int b) {
        int len = b - a;
        if (len <= 0) {
            return false;
        }
        String w = s.substring(a, b).toLowerCase(Locale.ROOT);
        return len == 1 || w.indexOf('.') >= 0 && len <= 4 || w.equals("etc") || w.equals("vs") || w.equals("mr")
                || w.equals("mrs") || w.equals("dr") || w.equals("no") || w.equals("fig") || w.equals("approx");
    }

    private static void core(String s, int a, int b, byte[] ctx, Buf out) {
        int plain = plainWord(s, a, b);
        if (plain >= 0) {
            // the common case: one word, one substring; lower-cased only if it has capitals, folded only if it
            // mixes letters and digits (what fold would find)
            String w = s.substring(a, b);
            String lower = (plain & UPPER) != 0 ? w.toLowerCase(Locale.ROOT) : w;
            String folded = (plain & (LETTER | DIGIT)) == (LETTER | DIGIT) ? fold(lower) : lower;
            word(out, folded, w, ctx[a], a);
            return;
        }
        String raw = s.substring(a, b);
        int marker = Math.max(raw.indexOf("://"), raw.indexOf('@'));
        if (marker > 0 && Gloss.hasHan(s, a + marker, b)) {
            // "把x@example.com添加为…": the address ends where Chinese starts again
            int h = a + marker;
            while (!Gloss.han(s.charAt(h))) {
                h++;
            }
            core(s, a, h, ctx, out);
            core(s, h, b, ctx, out);
            return;
        }
        if (marker > 0 && Gloss.hasHan(s, a, a + marker)) {
            // "发送到x@example.com": Chinese runs into an address with no space; the address starts after the
            // last Han character before it
            int h = a + marker - 1;
            while (!Gloss.han(s.charAt(h))) {
                h--;
            }
            core(s, a, h + 1, ctx, out);
            core(s, h + 1, b, ctx, out);
            return;
        }
        if (raw.contains("://")) {
            out.add(new Token(raw.toLowerCase(Locale.ROOT), raw, Token.Kind.URL, ctx[a], a));
            return;
        }
        int at = raw.indexOf('@');
        if (at > 0 && raw.indexOf('.', at) > at + 1) {
            out.add(new Token(raw.toLowerCase(Locale.ROOT), raw, Token.Kind.EMAIL, ctx[a], a));
            return;
        }
        char c0 = raw.charAt(0);
        if ((c0 == '~' || c0 == '/' || c0 == '$' || c0 == '%') && raw.length() > 1 || raw.startsWith("./")
                || raw.contains("/.") || c0 == '.' && raw.length() > 2 && Character.isLetter(raw.charAt(1))
                || raw.length() > 2 && raw.charAt(1) == ':' && raw.charAt(2) == '\\') {
            out.add(new Token(raw.toLowerCase(Locale.ROOT), raw, Token.Kind.PATH, ctx[a], a));
            return;
        }
        // split on anything that is not part of a word or identifier
        int k = a;
        while (k < b) {
            while (k < b && !isWordChar(s.charAt(k))) {
                char p = s.charAt(k);
                if (p == ',' || p == ':' || p == ';') {
                    out.add(new Token(String.valueOf(p), String.valueOf(p), Token.Kind.PUNCT, ctx[k], k));
                } else if (p == '>' || p == ']' || p == ')') {
                    // a closing tag or bracket ends a clause: "<system>Always answer ..."
                    out.add(new Token(",", String.valueOf(p), Token.Kind.PUNCT, ctx[k], k));
                } else if (p == '€' || p == '£' || p == '¥') {
                    // "2 000 €", "300€": the currency after its amount
                    out.add(new Token(String.valueOf(p), String.valueOf(p), Token.Kind.WORD, ctx[k], k));
                }
                k++;
            }
            int st = k;
            while (k < b && (isWordChar(s.charAt(k)) || isInnerChar(s, k, b))) {
                k++;
            }
            if (k > st && Gloss.hasHan(s, st, k)) {
                Gloss.cut(s, st, k, (w, r, pos) -> word(out, w, r, ctx[pos], pos));
            } else if (k > st) {
                String w = s.substring(st, k);
                word(out, fold(w.toLowerCase(Locale.ROOT).replace('\u2019', '\'').replace("\\'", "'")), w, ctx[st],
                        st);
            }
        }
    }

    /** Adds a word, read through the {@link Gloss} when it is French, Spanish, German or Chinese. */
    private static void word(Buf out, String w, String raw, byte ctx, int pos) {
        String[] g = w.isEmpty() ? null : Gloss.word(w, raw);
        if (g == null) {
            out.add(new Token(w, raw, Token.Kind.WORD, ctx, pos));
        } else {
            for (String e : g) {
                out.add(new Token(e, raw, Token.Kind.WORD, ctx, pos));
            }
        }
    }

    private static final int UPPER = 1;
    private static final int LETTER = 2;
    private static final int DIGIT = 4;

    /**
     * Whether the chunk is one plain ASCII word ({@code [A-Za-z0-9_]*}): -1 if not, else which of {@link #UPPER},
     * {@link #LETTER} and {@link #DIGIT} it holds.
     */
    private static int plainWord(String s, int a, int b) {
        int seen = 0;
        for (int k = a; k < b; k++) {
            char c = s.charAt(k);
            if (c >= 'a' && c <= 'z') {
                seen |= LETTER;
            } else if (c >= 'A' && c <= 'Z') {
                seen |= LETTER | UPPER;
            } else if (c >= '0' && c <= '9') {
                seen |= DIGIT;
            } else if (c != '_') {
                return -1;
            }
        }
        return seen;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** Apostrophes, dots and hyphens inside a word: don't, send.email, role-play. */
    private static boolean isInnerChar(String s, int k, int b) {
        char c = s.charAt(k);
        if (c == '\\') {
            // a Python repr escapes the apostrophe of a single-quoted string: "Don\'t", "N\'oublie"
            return k + 2 < b && s.charAt(k + 1) == '\'' && isWordChar(s.charAt(k + 2)) && k > 0
                    && isWordChar(s.charAt(k - 1));
        }
        boolean escaped = c == '\'' && k > 1 && s.charAt(k - 1) == '\\' && isWordChar(s.charAt(k - 2));
        return (c == '\'' || c == '\u2019' || c == '.' || c == '-') && k + 1 < b && isWordChar(s.charAt(k + 1))
                && k > 0 && (isWordChar(s.charAt(k - 1)) || escaped);
    }

    private static boolean isWrap(char c) {
        return "\"'“”‘’«»()[]{}*_`<>|".indexOf(c) >= 0;
    }

    private static boolean isTrail(char c) {
        return ".,;:!?".indexOf(c) >= 0;
    }

    /** Digits standing in for letters ("1gn0re"); only inside words that also have letters. */
    private static String fold(String w) {
        boolean letters = false;
        boolean digits = false;
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            letters |= Character.isLetter(c);
            digits |= Character.isDigit(c);
        }
        if (!(letters && digits) || w.length() > Lexicon.MAX_WORD) {
            // no word of a class is longer than MAX_WORD, and folding keeps the length
            return w;
        }
        StringBuilder b = new StringBuilder(w.length());
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            b.append(switch (c) {
                case '0' -> 'o';
                case '1' -> 'i';
                case '3' -> 'e';
                case '4' -> 'a';
                case '5' -> 's';
                case '7' -> 't';
                case '@' -> 'a';
                default -> c;
            });
        }
        String f = b.toString();
        return Lexicon.ALL_VERBS.contains(f) || Lexicon.INSTRUCTION_N.contains(f) || Lexicon.PROMPT_N.contains(f)
                || Lexicon.INSTRUCTION_Q.contains(f) ? f : w;
    }
}
