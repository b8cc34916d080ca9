package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

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
 * The policy engine through the gateway, over the real protocol, with real upstreams: a server with a poisoned
 * tool, an injection in a result, a URL argument and a destructive tool (src/test/node/policy-server.mjs), and
 * the real filesystem server confined to a sandbox root. The seed's worst bug was in wiring (a withheld tool was
 * still callable), which only a test that speaks the protocol finds.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class PolicyTest {

    @TestHTTPResource("/t/guarded/mcp")
    URI guarded;

    @TestHTTPResource("/t/guarded-allow/mcp")
    URI guardedAllow;

    private McpHttpClient session(URI uri) {
        McpHttpClient c = new McpHttpClient(uri);
        c.initialize("2025-11-25", Json.object());
        return c;
    }

    static Set<String> tools(McpHttpClient c) {
        Set<String> names = new HashSet<>();
        c.request("tools/list", Json.object()).path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private static ObjectNode call(McpHttpClient c, String tool, String args) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", Json.parse(args));
        return c.request("tools/call", p);
    }

    private static void assertRefused(ObjectNode response, String reason) {
        JsonNode e = response.path("error");
        assertEquals(-32001, e.path("code").asInt(), response.toString());
        assertEquals(reason, e.path("data").path("reason").asText(), response.toString());
        assertFalse(e.path("data").path("tool").asText().isEmpty(), response.toString());
    }

    static String text(ObjectNode response) {
        return response.path("result").path("content").path(0).path("text").asText(response.toString());
    }

    private static List<String> controls(ObjectNode response) {
        List<String> out = new java.util.ArrayList<>();
        response.path("error").path("data").path("controls").forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void aPoisonedToolIsWithheldAndCallingItDirectlyIsRefused() {
        try (McpHttpClient c = session(guarded)) {
            Set<String> names = tools(c);
            assertTrue(names.contains("pol__echo") && names.contains("fs__read_text_file"), names.toString());
            assertFalse(names.contains("pol__sneaky"), "withheld from the listing: " + names);
            ObjectNode r = call(c, "pol__sneaky", "{}");
            assertRefused(r, "tool_withheld");
            assertTrue(controls(r).contains("instruction_injection"), r.toString());
        }
        // a client that never lists (it knows the name from elsewhere) is refused just the same
        try (McpHttpClient c = session(guarded)) {
            assertRefused(call(c, "pol__sneaky", "{}"), "tool_withheld");
            assertEquals("echo:hi", text(call(c, "pol__echo", "{\"text\":\"hi\"}")));
        }
    }

    @Test
    void aResultCarryingAnInjectionIsRefused() {
        try (McpHttpClient c = session(guarded)) {
            assertEquals("Release notes for 2.4: faster sync, fewer retries.", text(call(c, "pol__page", "{\"name\":\"normal\"}")));
            ObjectNode r = call(c, "pol__page", "{\"name\":\"attack\"}");
            assertRefused(r, "instruction_injection");
            assertFalse(r.toString().contains("credentials"), "the refusal does not quote the payload: " + r);
        }
    }

    @Test
    void pathsEscapingTheSandboxAreRefusedBeforeTheRealFilesystemServerSeesThem() throws Exception {
        Path guard = Path.of(System.getProperty("test.guarded.dir"));
        Files.createSymbolicLink(guard.resolve("escape-link"), guard.getParent().resolve("outside.txt"));
        try (McpHttpClient c = session(guarded)) {
            assertEquals("inside the sandbox\n", text(call(c, "fs__read_text_file",
                    "{\"path\":" + Json.MAPPER.writeValueAsString(guard.resolve("inside.txt").toString()) + "}")));
        }
        for (String escape : List.of(guard + "/../outside.txt", guard + "/%2e%2e/outside.txt",
                guard + "/escape-link", "/etc/passwd")) {
            // a session each: this tenant allows three calls per tool and session
            try (McpHttpClient c = session(guarded)) {
                ObjectNode r = call(c, "fs__read_text_file", "{\"path\":" + Json.MAPPER.writeValueAsString(escape) + "}");
                assertRefused(r, "path_outside_sandbox");
                assertEquals(List.of("path_sandbox"), controls(r));
            }
        }
    }

    @Test
    void egressOutsideTheAllowlistIsRefused() {
        try (McpHttpClient c = session(guarded)) {
            assertEquals("fetched", text(call(c, "pol__fetch_url", "{\"url\":\"https://docs.example.com/a\"}")));
            assertRefused(call(c, "pol__fetch_url", "{\"url\":\"https://example.com.evil.net/a\"}"), "egress_denied");
            assertRefused(call(c, "pol__fetch_url", "{\"url\":\"http://2130706433/admin\"}"), "egress_denied");
        }
    }

    @Test
    void budgetsAndTheCircuitBreakerTrip() {
        try (McpHttpClient c = session(guarded)) {
            for (int i = 0; i < 3; i++) {
                assertEquals("echo:" + i, text(call(c, "pol__echo", "{\"text\":\"" + i + "\"}")));
            }
            assertRefused(call(c, "pol__echo", "{\"text\":\"4\"}"), "budget_exceeded");
            assertTrue(call(c, "pol__fail", "{}").path("result").path("isError").asBoolean());
            assertTrue(call(c, "pol__fail", "{}").path("result").path("isError").asBoolean());
            assertRefused(call(c, "pol__fail", "{}"), "circuit_open");
        }
    }

    @Test
    void destructiveCallsAreHeldWithTheFingerprintOfTheCall() throws Exception {
        try (McpHttpClient c = session(guarded)) {
            ObjectNode r = call(c, "pol__drop_table", "{\"table\":\"users\"}");
            assertRefused(r, "approval_required");
            String canonical = "{\"arguments\":{\"table\":\"users\"},\"tool\":\"pol__drop_table\"}";
            String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(StandardCharsets.UTF_8)));
            assertEquals(expected, r.path("error").path("data").path("fingerprint").asText());
        }
    }

    @Test
    void argumentsOutsideThePublishedSchemaAreRefused() {
        try (McpHttpClient c = session(guarded)) {
            assertRefused(call(c, "pol__echo", "{\"text\":5}"), "schema_violation");
            assertRefused(call(c, "pol__echo", "{\"text\":\"a\",\"mode\":\"x\"}"), "schema_violation");
        }
    }

    @Test
    void theAllowlistHidesAndRefusesEverythingElse() {
        try (McpHttpClient c = session(guardedAllow)) {
            assertEquals(Set.of("pol__echo"), tools(c));
            ObjectNode r = call(c, "fs__read_text_file", "{\"path\":\"/etc/hostname\"}");
            assertRefused(r, "tool_withheld");
            assertTrue(controls(r).contains("tool_allowlist"), r.toString());
        }
    }

    @Test
    void aChangedDefinitionIsQuarantinedUntilAnOperatorAcceptsIt() throws Exception {
        Path data = Path.of(System.getProperty("test.data.dir"));
        try (McpHttpClient c = session(guarded)) {
            assertTrue(tools(c).contains("pol__mutable"));
            assertEquals("mutable", text(call(c, "pol__mutable", "{}")));
            assertEquals("flipped", text(call(c, "pol__flip", "{}")));
            // the upstream announced list_changed: the gateway re-judges its declarations on its own
            ObjectNode refused = eventually(() -> call(c, "pol__mutable", "{}"), r -> r.has("error"));
            assertRefused(refused, "tool_quarantined");

            String listed = pins(data, "list", "--tenant", "guarded");
            String line = listed.lines().filter(l -> l.startsWith("pol/mutable ")).findFirst().orElseThrow();
            assertTrue(line.contains("QUARANTINED pending "), listed);
            String pending = line.substring(line.lastIndexOf(' ') + 1);
            assertTrue(pins(data, "accept", "--tenant", "guarded", "--tool", "pol/mutable", "--sha256", "0".repeat(64))
                    .startsWith("exit 1"), "only the pending definition can be accepted");
            assertTrue(pins(data, "accept", "--tenant", "guarded", "--tool", "pol/mutable", "--sha256", pending)
                    .contains("accepted"));

            assertEquals("flipped", text(call(c, "pol__flip", "{}")));
            ObjectNode ok = eventually(() -> call(c, "pol__mutable", "{}"), r -> r.has("result"));
            assertEquals("mutable", text(ok));
        }
    }

    @Test
    void everyDecisionIsTracedWithoutItsPayload() throws Exception {
        try (McpHttpClient c = session(guarded)) {
            call(c, "pol__fetch_url", "{\"url\":\"https://tracer-check.evil.net/zz-secret-marker\"}");
        }
        Path trace = Path.of(System.getProperty("test.data.dir")).resolve("trace/guarded.jsonl");
        String content = eventually(() -> {
            try {
                return Files.exists(trace) ? Files.readString(trace) : "";
            } catch (java.io.IOException e) {
                return "";
            }
        }, s -> s.contains("egress_denied"));
        assertFalse(content.contains("zz-secret-marker") || content.contains("tracer-check"), "no payload in the trace");
        JsonNode line = content.lines().map(Json::parse).filter(n -> n.path("reason").asText().equals("egress_denied"))
                .findFirst().orElseThrow();
        assertEquals("request", line.path("stage").asText());
        assertEquals("pol__fetch_url", line.path("tool").asText());
        assertEquals("block", line.path("action").asText());
        assertTrue(line.path("micros").isIntegralNumber());
        assertEquals(64, line.path("payload").path("hmac_sha256").asText().length());
        assertTrue(line.path("payload").path("bytes").asInt() > 0);
        assertTrue(line.path("controls").toString().contains("egress_control"));
    }

    private static String pins(Path data, String... args) {
        return ToolPinsTest.pins(data, "", args);
    }

    private static <T> T eventually(Supplier<T> get, java.util.function.Predicate<T> done) {
        long until = System.nanoTime() + 10_000_000_000L;
        T last = get.get();
        while (!done.test(last) && System.nanoTime() < until) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            last = get.get();
        }
        assertTrue(done.test(last), "never happened: " + last);
        return last;
    }
}
