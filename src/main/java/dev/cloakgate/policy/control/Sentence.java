package dev.cloakgate.policy.control;

/**
 * A sentence's tokens ({@code toks[from..to)}, an array shared with the other sentences of the text) and where it
 * lies in the cleaned text; {@code endsWithColon} introduces what follows; {@code mask} is the union of its tokens'
 * {@link Lexicon} word classes, so a rule that needs a word of some class can skip a sentence without one.
 */
record Sentence(Token[] toks, int from, int to, int start, int end, boolean endsWithColon, long mask) {
    Token at(int i) {
        return i >= 0 && i < to - from ? toks[from + i] : null;
    }

    String w(int i) {
        return i >= 0 && i < to - from ? toks[from + i].w() : "";
    }

    /** Whether the token at {@code i} belongs to any of these classes; false outside the sentence. */
    boolean has(int i, long classes) {
        return i >= 0 && i < to - from && (toks[from + i].cls() & classes) != 0;
    }

    /** Whether any token of the sentence belongs to any of these classes. */
    boolean any(long classes) {
        return (mask & classes) != 0;
    }

    boolean isEmpty() {
        return to == from;
    }

    int size() {
        return to - from;
    }
}
