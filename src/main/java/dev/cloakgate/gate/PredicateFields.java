package dev.cloakgate.gate;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/** Reading the members of a signed statement's predicate strictly; every failure says which member and why. */
final class PredicateFields {
    private PredicateFields() {
    }

    static void only(JsonNode o, Set<String> allowed) {
        for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException("unknown predicate member " + k);
            }
        }
    }

    static String text(JsonNode o, String key) {
        return InTotoStatement.text(o, key);
    }

    /** A string or an explicit null; absent is an error (the member says "no task" on purpose, or not at all). */
    static String textOrNull(JsonNode o, String key) {
        JsonNode v = o.get(key);
        if (v != null && v.isNull()) {
            return null;
        }
        return text(o, key);
    }

    /** An RFC 3339 date-time with an offset ({@code 2026-01-01T10:00:00Z}). */
    static Instant instant(JsonNode o, String key) {
        String t = text(o, key);
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(key + " is not an RFC 3339 date-time with an offset");
        }
    }
}
