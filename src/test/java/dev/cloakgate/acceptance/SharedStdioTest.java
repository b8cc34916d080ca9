package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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
 * Issue 10, shared stdio servers ({@code "shared": true}): one child serves every session of the tenant (under a
 * cap of one child), each session's cloak vault stays its own (proved in what reached the child), progress goes
 * only to the session that asked, and a crash of the child fails the calls of the sessions it served with
 * {@code upstream_exited}, after which the next call starts one new child.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class SharedStdioTest {
    private static final String EMAIL = "anna.kowalska@example-shared.pl";

    @TestHTTPResource("/t/shared/mcp")
    URI shared;

    @TestHTTPResource("/t/unshared/mcp")
    URI unshared;

    private static String text(ObjectNode response) {
        return response.path("result").path("content").path(0).path("text").asText();
    }

    private static String whoami(McpHttpClient c) {
        ObjectNode r = c.request("tools/call", call("st__whoami", "{}"));
        assertTrue(text(r).startsWith("pid="), r.toString());
        return text(r).substring(4);
    }

    private static McpHttpClient open(URI tenant) {
        McpHttpClient c = new McpHttpClient(tenant);
        assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
        return c;
    }

    @Test
    void oneChildServesEverySessionOfASharedUpstream() {
        List<McpHttpClient> open = new ArrayList<>();
        try {
            Set<String> sharedPids = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                McpHttpClient c = open(shared);
                open.add(c);
                sharedPids.add(whoami(c));
            }
            assertEquals(1, sharedPids.size(), "three sessions, one child: " + sharedPids);
            Set<String> ownPids = new HashSet<>();
            for (int i = 0; i < 2; i++) {
                McpHttpClient c = open(unshared);
                open.add(c);
                ownPids.add(whoami(c));
            }
            assertEquals(2, ownPids.size(), "without shared, a child per session: " + ownPids);
        } finally {
            open.forEach(McpHttpClient::close);
        }
    }

    @Test
    void eachSessionKeepsItsOwnVaultOverTheSharedChild() throws Exception {
        Path record = Path.of(System.getProperty("test.shared.record"));
        try (McpHttpClient one = open(shared); McpHttpClient two = open(shared)) {
            assertEquals(whoami(one), whoami(two));
            String token = text(one.request("tools/call", call("st__echo", "{\"text\":\"" + EMAIL + "\"}")));
            assertEquals("[EMAIL_0]", token, "the value came back cloaked");
            // the other session quotes the same token: it is not its own, so it reaches the child as written
            two.request("tools/call", call("st__echo", "{\"text\":\"two says " + token + "\"}"));
            one.request("tools/call", call("st__echo", "{\"text\":\"one says " + token + "\"}"));
            String landed = Files.readString(record);
            assertTrue(landed.contains("\"text\":\"two says [EMAIL_0]\""), landed);
            assertTrue(landed.contains("\"text\":\"one says " + EMAIL + "\""), landed);
            assertFalse(landed.contains("two says " + EMAIL), landed);
        }
    }

    @Test
    void progressReachesOnlyTheSessionThatAsked() {
        try (McpHttpClient one = open(shared); McpHttpClient two = open(shared)) {
            ObjectNode p = call("st__wait", "{\"ms\":300}");
            p.putObject("_meta").put("progressToken", "one-token");
            assertTrue(text(one.request("tools/call", p)).startsWith("waited"));
            one.awaitNotification(n -> "one-token".equals(n.path("params").path("progressToken").asText(null)),
                    Duration.ofSeconds(30));
            whoami(two);
            assertFalse(two.notifications().stream().anyMatch(n -> "notifications/progress".equals(n.path("method").asText())),
                    two.notifications().toString());
        }
    }

    @Test
    void aCrashFailsTheCallsOfItsSessionsAndTheNextCallStartsAnotherChild() throws Exception {
        try (McpHttpClient one = open(shared); McpHttpClient two = open(shared)) {
            String before = whoami(one);
            assertEquals(before, whoami(two));
            ObjectNode slow = call("st__wait", "{\"ms\":60000}");
            slow.putObject("_meta").put("progressToken", "slow");
            CompletableFuture<ObjectNode> inFlight = two.requestAsync("tools/call", slow);
            // it reached the child: the child reports progress on it
            two.awaitNotification(n -> "slow".equals(n.path("params").path("progressToken").asText(null)),
                    Duration.ofSeconds(30));
            ObjectNode exit = one.request("tools/call", call("st__exit", "{}"));
            assertEquals("upstream_exited", exit.path("error").path("data").path("reason").asText(), exit.toString());
            ObjectNode failed = inFlight.get(60, TimeUnit.SECONDS);
            JsonNode e = failed.path("error");
            assertEquals("upstream_exited", e.path("data").path("reason").asText(), failed.toString());
            assertEquals("st", e.path("data").path("upstream").asText(), failed.toString());
            String after = whoami(two);
            assertNotEquals(before, after, "a new child");
            assertEquals(after, whoami(one), "one new child for both sessions");
        }
    }
}
