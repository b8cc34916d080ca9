package dev.cloakgate.ledger;

/**
 * One way a sequence of ledger entries fails to be the chain it claims to be. {@code line} is the entry's
 * 1-based position in what was verified; {@code detail} never quotes an entry's content beyond its own
 * envelope fields (seq, kind).
 */
public record ChainFailure(Kind kind, int line, String detail) {
    public enum Kind {
        /** The entry's bytes are not acceptable JSON (duplicate keys, numbers out of range, invalid UTF-8...). */
        MALFORMED_ENTRY,
        /** The bytes parse but do not re-canonicalise to themselves. */
        NOT_CANONICAL,
        /** A required envelope field ({@code v}, {@code tenant}, {@code seq}, {@code ts}, {@code kind}, {@code prev}) is missing or mistyped. */
        MISSING_FIELD,
        /** An entry of another format version. */
        UNKNOWN_VERSION,
        /** An entry of another tenant inside one tenant's chain. */
        TENANT_MISMATCH,
        /** {@code seq} skips ahead: entries are missing. */
        SEQ_GAP,
        /** {@code seq} goes back or repeats: entries are reordered or duplicated. */
        SEQ_REORDER,
        /** {@code prev} is not the hash of the entry before: an entry was altered, removed or spliced in. */
        PREV_MISMATCH
    }
}
