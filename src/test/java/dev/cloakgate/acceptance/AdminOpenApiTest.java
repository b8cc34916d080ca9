package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 10, admin API: its OpenAPI document, served on the management port, describes exactly the operations the
 * README's admin table lists (so the README's examples are the document's), each behind the bearer scheme, and
 * nothing of the MCP endpoint.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class AdminOpenApiTest {
    private static final Pattern README_ROW = Pattern.compile("^\\| `(GET|POST|DELETE|PUT) (/admin/t/\\{tenant}[^`?\\[ ]*)",
            Pattern.MULTILINE);

    @TestHTTPResource(value = "/openapi", management = true)
    URI openapi;

    @TestHTTPResource("/q/openapi")
    URI onAgentsPort;

    @Test
    void theDocumentListsExactlyTheReadmeOperationsEachBehindTheBearerScheme() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(openapi + "?format=json")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode doc = Json.parse(r.body());
        assertEquals("http", doc.path("components").path("securitySchemes").path("bearer").path("type").asText());
        assertEquals("bearer", doc.path("components").path("securitySchemes").path("bearer").path("scheme").asText());

        Set<String> documented = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> p = paths.next();
            assertTrue(p.getKey().startsWith("/admin/t/{tenant}"), "only the admin API is described: " + p.getKey());
            for (Iterator<Map.Entry<String, JsonNode>> ops = p.getValue().fields(); ops.hasNext();) {
                Map.Entry<String, JsonNode> op = ops.next();
                String name = op.getKey().toUpperCase(java.util.Locale.ROOT) + " " + p.getKey();
                documented.add(name);
                assertTrue(op.getValue().path("security").toString().contains("\"bearer\""), name + " without the bearer scheme");
                assertTrue(op.getValue().path("responses").has("401") && op.getValue().path("responses").has("403"),
                        name + " documents its refusals");
            }
        }

        String readme = Files.readString(Path.of("README.md"));
        String section = readme.substring(readme.indexOf("### Admin API"), readme.indexOf("### Management interface"));
        Set<String> listed = new TreeSet<>();
        Matcher m = README_ROW.matcher(section);
        while (m.find()) {
            listed.add(m.group(1) + " " + m.group(2));
        }
        assertEquals(documented, listed, "the README's admin table is the OpenAPI document's operations");

        // the description names every tenant's paths, so it is not served where agents connect
        assertEquals(404, http.send(HttpRequest.newBuilder(onAgentsPort).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode());
    }
}
