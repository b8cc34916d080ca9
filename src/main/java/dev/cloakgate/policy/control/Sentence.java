package dev.cloakgate.policy.control;

import java.util.List;

/** A sentence's tokens and where it lies in the cleaned text; {@code endsWithColon} introduces what follows. */
record Sentence(List<Token> tokens, int start, int end, boolean endsWithColon) {
    Token at(int i) {
        return i >= 0 && i < tokens.size() ? tokens.get(i) : null;
    }

    String w(int i) {
        return i >= 0 && i < tokens.size() ? tokens.get(i).w() : "";
    }

    int size() {
        return tokens.size();
    }
}
