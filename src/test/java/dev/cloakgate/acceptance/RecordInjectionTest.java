package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 13, through the gateway with {@code "policy": {}}: a request for an action on the principal's behalf in a
 * Python-repr record, an instruction split across two content blocks, a French override, and a request for what
 * another tool of the session does are refused; a courtesy request in the same kind of record is relayed. Tenant
 * {@code records}; src/test/node/records-server.mjs serves the records beside archive_thread and transfer_funds.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class RecordInjectionTest {
    @TestHTTPResource("/t/records/mcp")
    URI records;

    private static JsonNode record(McpHttpClient c, String name) {
        ObjectNode p = Json.object();
        p.put("name", "rec__get_record");
        p.putObject("arguments").put("name", name);
        return c.request("tools/call", p);
    }

    @Test
    void requestsInRecordsAreRefusedAndCourtesyIsRelayed() {
        try (McpHttpClient c = new McpHttpClient(records)) {
            c.initialize("2025-11-25", Json.object());
            c.request("tools/list", Json.object());
            for (String name : new String[] {"repr-action", "split", "french", "catalogue", "discussed-live"}) {
                JsonNode r = record(c, name);
                assertEquals(-32001, r.path("error").path("code").asInt(), () -> name + " -> " + r);
                assertEquals("instruction_injection", r.path("error").path("data").path("reason").asText(), r::toString);
                assertFalse(r.toString().contains("987-654-321") || r.toString().contains("evil.example")
                        || r.toString().contains("archive the"), "the refusal does not quote the payload: " + r);
            }
            JsonNode ok = record(c, "courtesy");
            String text = ok.path("result").path("content").path(0).path("text").asText(ok.toString());
            assertTrue(text.contains("please send me the Q3 numbers"), text);
        }
    }
}
