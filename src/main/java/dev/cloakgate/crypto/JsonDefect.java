package dev.cloakgate.crypto;

/**
 * One reason a JSON text is not acceptable as signed evidence. {@code where} is a JSON Pointer (RFC 6901) for
 * defects inside the value, or a byte or character offset for defects in the text itself.
 */
public record JsonDefect(Kind kind, String where, String detail) {

    public enum Kind {
        /** The bytes are not UTF-8 (including encoded surrogates and overlong forms). */
        INVALID_UTF8,
        /** The text is not one JSON value; reading stops here, so later defects go unreported. */
        SYNTAX,
        /** More content after the one JSON value. */
        TRAILING_CONTENT,
        /** A member name appears twice in one object (compared after unescaping). */
        DUPLICATE_KEY,
        /** A string or member name holds an unpaired UTF-16 surrogate, which has no UTF-8 form. */
        LONE_SURROGATE,
        /** A number overflows a double, or a non-zero number underflows to zero. */
        NUMBER_OUT_OF_RANGE,
        /**
         * An integer literal past 2^53 that is neither a double's exact value nor a double's canonical text
         * (9007199254740993): it says more than a double can hold, so readers would disagree on it.
         */
        NUMBER_UNREPRESENTABLE,
        /** The value is acceptable but the bytes are not its RFC 8785 form. */
        NOT_CANONICAL
    }
}
