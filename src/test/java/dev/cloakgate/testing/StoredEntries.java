package dev.cloakgate.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.ledger.Ledger;

/** A running gateway's ledger entries as stored (where the evidence lands), read after a flush. */
public final class StoredEntries {
    private StoredEntries() {
    }

    /** The entries from {@code from} to the last one. */
    public static List<JsonNode> from(Ledger ledger, long from) {
        ledger.flush();
        List<JsonNode> entries = new ArrayList<>();
        for (byte[] e : ledger.store().read(from, ledger.store().lastSeq())) {
            entries.add(Json.parse(new String(e, StandardCharsets.UTF_8)));
        }
        return entries;
    }

    /** The entries of one {@code kind} from {@code from} on. */
    public static List<JsonNode> of(Ledger ledger, long from, String kind) {
        return from(ledger, from).stream().filter(e -> e.path("kind").asText().equals(kind)).toList();
    }
}
