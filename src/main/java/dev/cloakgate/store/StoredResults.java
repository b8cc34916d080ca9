package dev.cloakgate.store;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** How the operations stores (SQLite and PostgreSQL) write a done call's cloaked result and read it back for replay. */
final class StoredResults {
    /**
     * Results are written and read back as the gateway's codec reads messages: exact decimals (1.0 stays 1.0), no
     * limit below what the gateway already accepted when it stored them.
     */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE)
                    .maxNestingDepth(100_000).maxNumberLength(Integer.MAX_VALUE).build())
            .build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    private StoredResults() {
    }

    static byte[] bytes(JsonNode result) {
        try {
            return JSON.writeValueAsBytes(result);
        } catch (IOException e) {
            throw new IllegalArgumentException("a result that cannot be written as JSON", e);
        }
    }

    /** @param where names the store in the message of a damaged result */
    static JsonNode parse(byte[] stored, String operationId, String where) {
        try {
            return JSON.readTree(stored);
        } catch (IOException e) {
            throw new StoreException(where + ": the stored result of operation " + operationId + " is not readable JSON; the store is damaged");
        }
    }
}
