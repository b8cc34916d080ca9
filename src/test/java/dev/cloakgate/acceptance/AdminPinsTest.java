package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.server.Gateway;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.StoredEntries;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 10, admin API: an operator reviews and accepts quarantined tool definitions over HTTP, as {@code pins diff}
 * and {@code pins accept --upstream} do on the command line. Accepting takes the hashes the operator was shown, so
 * a definition that changed again since stays quarantined; each acceptance is on the ledger with the operator's name.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class AdminPinsTest {
    private static final Set<String> ALL = Set.of("dr__read_file", "dr__list_dir", "dr__stat", "dr__delete_file", "dr__about");

    @TestHTTPResource("/t/drift-admin/mcp")
    URI drift;

    @TestHTTPResource("/admin/t/drift-admin/pins")
    URI pins;

    @Inject
    Gateway gateway;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void anOperatorSeesWhatChangedAndAcceptsExactlyWhatWasShown() throws Exception {
        Path variant = Path.of(System.getProperty("test.drift-admin.variant"));
        Files.writeString(variant, "a");
        try (McpHttpClient c = session()) {
            assertEquals(ALL, tools(c), "first sight: every tool pinned");
        }
        Files.writeString(variant, "b");
        try (McpHttpClient c = session()) {
            assertEquals(Set.of("dr__about"), tools(c), "the four drifted definitions are quarantined");
        }

        JsonNode list = get("", Upstreams.OPERATOR_TOKEN);
        assertEquals(5, list.path("pins").size(), list.toString());
        int quarantined = 0;
        for (JsonNode p : list.path("pins")) {
            quarantined += p.path("quarantined").asBoolean() ? 1 : 0;
        }
        assertEquals(4, quarantined, list.toString());

        JsonNode pending = get("/pending?upstream=dr", Upstreams.OPERATOR_TOKEN);
        assertEquals(4, pending.path("pending").size(), pending.toString());
        JsonNode listDir = null;
        for (JsonNode p : pending.path("pending")) {
            if (p.path("tool").asText().equals("dr/list_dir")) {
                listDir = p;
            }
        }
        assertTrue(listDir != null, pending.toString());
        assertEquals("Lists a directory. zz-drift-desc-list", listDir.path("pinned").path("description").asText());
        assertEquals("Lists a directory, then zz-drift-desc-changed", listDir.path("proposed").path("description").asText());
        assertEquals("changed", listDir.path("changes").path(0).path("kind").asText());
        assertEquals("/description", listDir.path("changes").path(0).path("pointer").asText());
        ObjectNode accept = (ObjectNode) pending.path("accept");
        assertEquals(4, accept.size(), pending.toString());

        // refusals: no role, a body that is not the map, hashes that are not pending
        assertEquals(403, post("/accept", accept.toString(), Upstreams.AUDITOR_TOKEN).statusCode());
        HttpResponse<String> bad = post("/accept", "{\"dr/list_dir\": \"not-a-hash\"}", Upstreams.OPERATOR_TOKEN);
        assertEquals(400, bad.statusCode());
        assertEquals("bad_request", Json.parse(bad.body()).path("error").asText());
        assertEquals(400, post("/accept", "[1,2", Upstreams.OPERATOR_TOKEN).statusCode());
        HttpResponse<String> stale = post("/accept", "{\"dr/list_dir\": \"" + "0".repeat(64) + "\"}", Upstreams.OPERATOR_TOKEN);
        assertEquals(409, stale.statusCode(), stale.body());
        assertEquals("pin_not_pending", Json.parse(stale.body()).path("error").asText());

        // what was shown, and one that was not (read_file's pending hash replaced): read_file stays quarantined
        ObjectNode reviewed = accept.deepCopy();
        reviewed.put("dr/read_file", "f".repeat(64));
        long before = ledgerSize();
        HttpResponse<String> ok = post("/accept", reviewed.toString(), Upstreams.OPERATOR_TOKEN);
        assertEquals(200, ok.statusCode(), ok.body());
        JsonNode answer = Json.parse(ok.body());
        assertEquals(3, answer.path("accepted").size(), ok.body());
        assertEquals("dr/read_file", answer.path("not_accepted").path(0).asText(), ok.body());
        try (McpHttpClient c = session()) {
            Set<String> expected = new TreeSet<>(ALL);
            expected.remove("dr__read_file");
            assertEquals(expected, tools(c), "the three accepted are listed again, read_file is not");
        }
        List<JsonNode> entries = entries(before, "pin_accepted");
        assertEquals(3, entries.size(), entries.toString());
        for (JsonNode e : entries) {
            assertEquals("operator", e.path("principal").asText());
            assertEquals(accept.path(e.path("tool").asText()).asText(), e.path("sha256").asText(), e.toString());
            assertFalse(e.toString().contains("zz-drift"), "no upstream text in the ledger");
        }

        HttpResponse<String> rest = post("/accept", "{\"dr/read_file\": \"" + accept.path("dr/read_file").asText() + "\"}",
                Upstreams.OPERATOR_TOKEN);
        assertEquals(200, rest.statusCode(), rest.body());
        try (McpHttpClient c = session()) {
            assertEquals(ALL, tools(c));
        }
        assertEquals(0, get("/pending", Upstreams.OPERATOR_TOKEN).path("pending").size());
    }

    private JsonNode get(String path, String token) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(pins + path))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Json.parse(r.body());
    }

    private HttpResponse<String> post(String path, String body, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(pins + path)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private McpHttpClient session() {
        McpHttpClient c = new McpHttpClient(drift);
        c.initialize("2025-11-25", Json.object());
        return c;
    }

    private static Set<String> tools(McpHttpClient c) {
        return new TreeSet<>(PolicyTest.tools(c));
    }

    private long ledgerSize() {
        var ledger = gateway.ledger("drift-admin");
        ledger.flush();
        return ledger.size();
    }

    private List<JsonNode> entries(long from, String kind) {
        return StoredEntries.of(gateway.ledger("drift-admin"), from, kind);
    }
}
