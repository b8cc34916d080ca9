package dev.cloakgate.policy.control;

/**
 * Marks, per character, the places where text quotes rather than speaks: quotation marks, fenced and inline code,
 * markdown blockquotes; and the one place that hides: HTML comments. One pass per construct, each linear; an
 * unclosed fence or an over-long quote marks nothing, so an attacker cannot open a quote and never close it.
 */
final class Layout {
    static final byte QUOTE = 1;
    static final byte FENCE = 2;
    static final byte INLINE = 4;
    static final byte BLOCKQUOTE = 8;
    static final byte COMMENT = 16;
    static final byte QUOTING = QUOTE | FENCE | INLINE | BLOCKQUOTE;

    /** Longest span a pair of quotation marks may enclose and still count as a quote. */
    private static final int MAX_QUOTE = 600;

    byte[] of(String s) {
        byte[] ctx = new byte[s.length()];
        comments(s, ctx);
        lines(s, ctx);
        inlineCode(s, ctx);
        quotes(s, ctx);
        return ctx;
    }

    private static void comments(String s, byte[] ctx) {
        int from = 0;
        while (true) {
            int open = s.indexOf("<!--", from);
            if (open < 0) {
                return;
            }
            int close = s.indexOf("-->", open + 4);
            int end = close < 0 ? s.length() : close + 3;
            mark(ctx, open, end, COMMENT);
            from = end;
        }
    }

    /** Fences (paired only) and blockquote lines. */
    private static void lines(String s, byte[] ctx) {
        int fenceOpen = -1;
        int n = s.length();
        for (int start = 0; start < n;) {
            int end = s.indexOf('\n', start);
            if (end < 0) {
                end = n;
            }
            int i = start;
            while (i < end && i - start < 4 && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
            if (s.startsWith("```", i) || s.startsWith("~~~", i)) {
                if (fenceOpen < 0) {
                    fenceOpen = start;
                } else {
                    mark(ctx, fenceOpen, end, FENCE);
                    fenceOpen = -1;
                }
            } else if (fenceOpen < 0 && i < end && s.charAt(i) == '>' && (ctx[i] & COMMENT) == 0) {
                mark(ctx, start, end, BLOCKQUOTE);
            }
            start = end + 1;
        }
    }

    /** Backtick spans closed on the same line. */
    private static void inlineCode(String s, byte[] ctx) {
        int open = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n') {
                open = -1;
            } else if (c == '`' && (ctx[i] & FENCE) == 0) {
                if (open < 0) {
                    open = i;
                } else {
                    mark(ctx, open, i + 1, INLINE);
                    open = -1;
                }
            }
        }
    }

    /**
     * Paired quotation marks within a paragraph. A straight quote that opens a JSON value ({@code "k": "v"}) is
     * syntax, not quotation, and marks nothing.
     */
    private static void quotes(String s, byte[] ctx) {
        int dbl = -1;
        int curly = -1;
        int single = -1;
        int guillemet = -1;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '\n' && i + 1 < n && s.charAt(i + 1) == '\n') {
                dbl = curly = single = guillemet = -1;
                continue;
            }
            if (c != '"' && c != '\'' && c < '\u00AB') {
                // not a quotation mark: nothing below applies
                continue;
            }
            if ((ctx[i] & (FENCE | INLINE)) != 0) {
                continue;
            }
            switch (c) {
                case '"' -> {
                    if (dbl < 0) {
                        dbl = i;
                    } else {
                        pair(s, ctx, dbl, i);
                        dbl = -1;
                    }
                }
                case '\u201C', '\u201E' -> curly = i;
                case '\u201D' -> {
                    if (curly >= 0) {
                        pair(s, ctx, curly, i);
                        curly = -1;
                    } else if (dbl < 0) {
                        dbl = -1;
                    }
                }
                case '\u00AB' -> guillemet = i;
                case '\u00BB' -> {
                    if (guillemet >= 0) {
                        pair(s, ctx, guillemet, i);
                        guillemet = -1;
                    }
                }
                case '\u2018', '\'' -> {
                    boolean letterBefore = i > 0 && Character.isLetterOrDigit(s.charAt(i - 1));
                    boolean letterAfter = i + 1 < n && Character.isLetterOrDigit(s.charAt(i + 1));
                    if (!letterBefore && letterAfter && single < 0) {
                        single = i;
                    } else if (single >= 0 && !letterAfter && (c == '\'' || c == '\u2018')) {
                        pair(s, ctx, single, i);
                        single = -1;
                    }
                }
                case '\u2019' -> {
                    boolean letterAfter = i + 1 < n && Character.isLetterOrDigit(s.charAt(i + 1));
                    if (single >= 0 && !letterAfter) {
                        pair(s, ctx, single, i);
                        single = -1;
                    }
                }
                default -> {
                }
            }
        }
    }

    private static void pair(String s, byte[] ctx, int open, int close) {
        if (close - open > MAX_QUOTE || isJsonValue(s, open)) {
            return;
        }
        mark(ctx, open, close + 1, QUOTE);
    }

    private static boolean isJsonValue(String s, int open) {
        int p = open - 1;
        while (p >= 0 && (s.charAt(p) == ' ' || s.charAt(p) == '\t' || s.charAt(p) == '\n' || s.charAt(p) == '\r')) {
            p--;
        }
        if (p < 0) {
            return false;
        }
        char c = s.charAt(p);
        if (c == '{' || c == '[') {
            return true;
        }
        if (c == ':' || c == ',') {
            int q = p - 1;
            while (q >= 0 && s.charAt(q) == ' ') {
                q--;
            }
            return q >= 0 && (s.charAt(q) == '"' || s.charAt(q) == ']' || s.charAt(q) == '}'
                    || Character.isDigit(s.charAt(q)) || s.startsWith("true", q - 3) || s.startsWith("null", q - 3));
        }
        return false;
    }

    private static void mark(byte[] ctx, int from, int to, byte flag) {
        for (int i = Math.max(0, from); i < Math.min(ctx.length, to); i++) {
            ctx[i] |= flag;
        }
    }
}
