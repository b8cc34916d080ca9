package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Clients the project did not write drive the gateway: the TypeScript SDK's streamable-HTTP client, and the
 * official conformance suite, whose server scenarios must pass through the gateway wherever they pass against
 * the server behind it.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class IndependentClientsTest {

    @TestHTTPResource("/t/duo/mcp")
    URI duo;

    @TestHTTPResource("/t/conformance/mcp")
    URI conformance;

    @Test
    void typescriptSdkClientListsCallsAndAnswersSamplingThroughTheGateway() {
        Map.Entry<Integer, String> run = NodeFixtures.run(Duration.ofSeconds(60), NodeFixtures.INDEPENDENT_CLIENT.toString(),
                duo.toString(), "beta__ask_sampling", "{\"prompt\":\"What is two plus two?\"}");
        assertEquals(0, run.getKey(), run.getValue());
        JsonNode out = Json.parse(run.getValue().trim());
        assertEquals("cloakgate", out.path("serverInfo").path("name").asText());
        List<String> tools = new ArrayList<>();
        out.path("tools").forEach(t -> tools.add(t.asText()));
        assertTrue(tools.contains("alpha__read__all") && tools.contains("beta__ask_sampling"), tools.toString());
        assertEquals("sampled-by-independent-client", out.path("callResult").path("content").path(0).path("text").asText(),
                out.toString());
        assertEquals(6, out.path("resources").size(), "the SDK followed the gateway's merged cursor: " + out);
        assertEquals(2, out.path("prompts").size());
    }

    @Test
    void conformanceSuitePassesThroughTheGatewayWhereverItPassesDirectly() throws Exception {
        JsonNode direct = summary(URI.create(System.getProperty("test.conformance.url")));
        JsonNode through = summary(conformance);
        assertFalse(direct.isEmpty());
        List<String> regressions = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = direct.fields();
        int passingDirectly = 0;
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!passes(e.getValue())) {
                continue;
            }
            passingDirectly++;
            JsonNode g = through.path(e.getKey());
            if (!passes(g)) {
                regressions.add(e.getKey() + " direct=" + e.getValue() + " gateway=" + g);
            }
        }
        assertEquals(direct.size(), passingDirectly, "the fixture server passes every scenario: " + direct);
        assertTrue(regressions.isEmpty(), "scenarios that pass directly but not through the gateway: " + regressions);
    }

    private static boolean passes(JsonNode scenario) {
        return scenario.isObject() && scenario.path("failure").asInt(-1) == 0 && scenario.path("warning").asInt(-1) == 0
                && scenario.path("success").asInt() > 0;
    }

    private static JsonNode summary(URI url) throws Exception {
        Path out = Files.createTempFile("conformance-", ".json");
        Path results = Files.createTempDirectory("conformance-results-");
        Map.Entry<Integer, String> run = NodeFixtures.run(Duration.ofMinutes(5), NodeFixtures.RUN_CONFORMANCE.toString(),
                "summary", "--url", url.toString(), "--out", out.toString(), "--results-dir", results.toString());
        assertTrue(run.getKey() == 0 || run.getKey() == 1, "conformance runner failed to run: " + run);
        return Json.parse(Files.readString(out));
    }
}
