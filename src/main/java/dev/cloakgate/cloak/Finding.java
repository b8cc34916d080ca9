package dev.cloakgate.cloak;

/** A detected value: {@code text.substring(start, end)} is of {@code category}. */
public record Finding(Category category, int start, int end) {
    public int length() {
        return end - start;
    }
}
