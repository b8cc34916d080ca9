package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.TenantSecret;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An upstream that cannot start (a child that writes a few lines to stderr and exits with code 7), beside one that
 * works, in a tenant with and without a policy: calls to its tools are refused with its own failure, an unknown tool
 * name is {@code unknown_tool} either way, the log names the cause (exit code and the first lines of stderr, bounded
 * and scrubbed), its health is a metric, and evidence of values restored or written into a call exists only for
 * calls that were sent.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class UpstreamDiagnosticsTest {

    @TestHTTPResource("/t/broken/mcp")
    URI broken;

    @TestHTTPResource("/t/broken-policy/mcp")
    URI brokenPolicy;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    @TestHTTPResource("/admin/t/broken-policy/ledger/export")
    URI export;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aToolOfAnUpstreamThatCannotStartIsRefusedWithItsOwnFailure() {
        for (URI tenant : List.of(broken, brokenPolicy)) {
            try (McpHttpClient c = new McpHttpClient(tenant)) {
                assertTrue(c.initialize("2025-11-25", Json.object()).has("result"), "alpha still serves");
                ObjectNode r = c.request("tools/call", call("gone__anything", "{}"));
                JsonNode e = r.path("error");
                assertEquals(-32603, e.path("code").asInt(), r.toString());
                assertEquals("upstream_exited", e.path("data").path("reason").asText(), r.toString());
                assertEquals("gone", e.path("data").path("upstream").asText(), r.toString());
                assertTrue(e.path("message").asText().contains("exited (status 7)"), r.toString());
                // what the child wrote to stderr is for the operator's log, never for the client
                assertFalse(r.toString().contains("config.yaml") || r.toString().contains("operator.contact"), r.toString());
            }
        }
    }

    @Test
    void anUnknownToolIsUnknownWithOrWithoutAPolicy() {
        for (URI tenant : List.of(broken, brokenPolicy)) {
            try (McpHttpClient c = new McpHttpClient(tenant)) {
                c.initialize("2025-11-25", Json.object());
                for (String name : List.of("alpha__no_such_tool", "nobody__anything")) {
                    ObjectNode r = c.request("tools/call", call(name, "{}"));
                    assertEquals(-32602, r.path("error").path("code").asInt(), tenant + " " + r);
                    assertEquals("unknown_tool", r.path("error").path("data").path("reason").asText(), tenant + " " + r);
                }
                assertEquals("alpha:still here", TwoUpstreamsTest.text(c.request("tools/call",
                        call("alpha__echo", "{\"text\":\"still here\"}"))));
            }
        }
    }

    @Test
    void theLogNamesTheCauseBoundedAndScrubbed() throws Exception {
        try (McpHttpClient c = new McpHttpClient(broken)) {
            c.initialize("2025-11-25", Json.object());
        }
        String log = Files.readString(Path.of(System.getProperty("test.gateway.log")));
        List<String> lines = log.lines().filter(l -> l.contains("WARN") && l.contains("broken/gone")).toList();
        assertFalse(lines.isEmpty(), "no WARN line names the upstream that could not start");
        String line = lines.get(lines.size() - 1);
        assertTrue(line.contains("exited (status 7)") && line.contains("before completing initialize"), line);
        assertTrue(line.contains("Error: cannot read configuration /srv/app/config.yaml"), line);
        assertTrue(line.contains("[EMAIL]") && line.contains("[SECRET]"), "values found are replaced by category: " + line);
        assertFalse(log.contains("operator.contact@example-broken.org") || log.contains("AKIAQ3EGRT6SLPXY7VZ2"),
                "a value from stderr reached the log");
        assertFalse(log.contains("\u001b"), "a terminal escape reached the log");
        assertFalse(line.contains("later line 40") || line.contains("L".repeat(1000)), "stderr is bounded: " + line.length());
        assertTrue(log.lines().noneMatch(l -> l.contains("WARN") && l.contains("broken/alpha")), "alpha started fine");
    }

    @Test
    void upstreamHealthIsAMetric() throws Exception {
        try (McpHttpClient c = new McpHttpClient(broken)) {
            c.initialize("2025-11-25", Json.object());
        }
        String text = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertEquals(0.0, sample(text, "cloakgate_upstream_up", "tenant=\"broken\",upstream=\"gone\""), text);
        assertEquals(1.0, sample(text, "cloakgate_upstream_up", "tenant=\"broken\",upstream=\"alpha\""), text);
        assertTrue(sample(text, "cloakgate_upstream_failures_total",
                "phase=\"start\",reason=\"upstream_exited\",tenant=\"broken\",upstream=\"gone\"") >= 1, text);
    }

    @Test
    void evidenceOfValuesWrittenIntoACallOnlyForCallsThatWereSent() throws Exception {
        String session;
        try (McpHttpClient c = new McpHttpClient(brokenPolicy)) {
            c.initialize("2025-11-25", Json.object());
            session = TenantSecret.load(Path.of(System.getProperty("test.data.dir")), "broken-policy").sessionDigest(c.sessionId());
            ObjectNode refused = c.request("tools/call", call("alpha__echo",
                    "{\"text\":\"write to refused.pii@example.org, see https://evil.example/x\"}"));
            assertEquals("egress_denied", refused.path("error").path("data").path("reason").asText(), refused.toString());
            ObjectNode unsent = c.request("tools/call", call("gone__anything", "{\"text\":\"unsent.pii@example.org\"}"));
            assertEquals("upstream_exited", unsent.path("error").path("data").path("reason").asText(), unsent.toString());
            ObjectNode sent = c.request("tools/call", call("alpha__fail", "{\"text\":\"sent.pii@example.org\"}"));
            assertTrue(sent.path("error").path("message").asText().startsWith("alpha failed"), sent.toString());
        }
        HttpResponse<byte[]> zip = http.send(HttpRequest.newBuilder(export).header("Authorization", "Bearer "
                + Upstreams.AUDITOR_TOKEN).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, zip.statusCode());
        List<JsonNode> raw = EvidenceTest.entries(zip.body()).stream()
                .filter(e -> session.equals(e.path("session").asText()) && e.path("kind").asText().equals("raw_pii")).toList();
        assertEquals(1, raw.size(), "only the call that was sent: " + raw);
        assertEquals("alpha__fail", raw.get(0).path("tool").asText(), raw.toString());
    }

    private static double sample(String exposition, String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + name + "\\{" + Pattern.quote(labels) + "[^}]*\\} ([0-9.E+-]+)$").matcher(exposition);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }
}
