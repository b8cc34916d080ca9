package dev.cloakgate.crypto;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** What a strict read of a JSON text found: the value, or every defect it could see. */
public sealed interface StrictJson {

    record Parsed(JsonNode value) implements StrictJson {
    }

    record Rejected(List<JsonDefect> defects) implements StrictJson {
        public Rejected {
            defects = List.copyOf(defects);
            if (defects.isEmpty()) {
                throw new IllegalArgumentException("a rejection names at least one defect");
            }
        }
    }
}
