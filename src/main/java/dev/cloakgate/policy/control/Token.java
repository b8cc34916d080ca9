package dev.cloakgate.policy.control;

/**
 * One word of a sentence. {@code w} is the lower-cased word the rules compare ({@code raw} as written, for tool
 * names); {@code ctx} is the {@link Layout} flags where it starts; {@code cls} the {@link Lexicon} word classes of
 * {@code w}, looked up once.
 */
record Token(String w, String raw, Kind kind, byte ctx, int pos, long cls) {
    enum Kind { WORD, PUNCT, URL, EMAIL, PATH }

    Token(String w, String raw, Kind kind, byte ctx, int pos) {
        this(w, raw, kind, ctx, pos, Lexicon.classOf(w));
    }

    /** Whether the word belongs to any of these {@link Lexicon} classes. */
    boolean in(long classes) {
        return (cls & classes) != 0;
    }

    boolean is(String word) {
        return w.equals(word);
    }

    boolean punct() {
        return kind == Kind.PUNCT;
    }

    boolean quoting() {
        return (ctx & Layout.QUOTING) != 0;
    }

    /** Looks like a tool or function name: snake_case, dotted, kebab, or camelCase, or written as code. */
    boolean identifier() {
        if (kind != Kind.WORD || raw.length() < 3) {
            return false;
        }
        if ((ctx & Layout.INLINE) != 0) {
            return true;
        }
        boolean lower = false;
        for (int i = 1; i < raw.length() - 1; i++) {
            char c = raw.charAt(i);
            if (c == '_' || c == '.') {
                return true;
            }
            if (Character.isLowerCase(c)) {
                lower = true;
            } else if (Character.isUpperCase(c) && lower && Character.isLowerCase(raw.charAt(0))) {
                return true;
            }
        }
        return false;
    }
}
