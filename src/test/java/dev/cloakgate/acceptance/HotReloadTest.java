package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.server.Gateway;
import dev.cloakgate.tenant.TenantStatus;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.StoredEntries;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Live tenant configuration over real HTTP: while agents call tools without pause, the tenant file is changed
 * several times (a new upstream, an invalid file, a changed policy). No call fails; each new session gets the
 * configuration current when it started and each existing session keeps its own; the invalid file leaves the
 * previous configuration serving, readiness up, and shows in the tenant status and the reload metric; each
 * accepted file is a {@code config_loaded} entry of the tenant's ledger.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class HotReloadTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TestHTTPResource("/t/reload/mcp")
    URI endpoint;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    @TestHTTPResource(value = "/health/ready", management = true)
    URI ready;

    @Inject
    Gateway gateway;

    private final HttpClient http = HttpClient.newHttpClient();

    private static Path file() {
        return Path.of(System.getProperty("test.reload.file"));
    }

    /** The tenant file with upstream alpha (stdio probe), optionally beta (the HTTP probe), and a policy. */
    private static String tenant(boolean beta, String policy, String extra) {
        ObjectNode t = Json.object();
        ObjectNode ups = t.putObject("upstreams");
        ObjectNode alpha = ups.putObject("alpha");
        alpha.put("command", "node");
        alpha.putArray("args").add(NodeFixtures.PROBE.toString()).add("stdio").add("--name").add("alpha");
        if (beta) {
            ups.putObject("beta").put("url", System.getProperty("test.beta.url"));
        }
        t.put("sanitize", false);
        if (policy != null) {
            t.set("policy", Json.parse(policy));
        }
        t.set("auth", Upstreams.openAuth()); // agents need no credential here (AuthReload below: one that does)
        String json = Json.write(t);
        return extra == null ? json : json.substring(0, json.length() - 1) + "," + extra + "}";
    }

    /** Replaces the file in one rename, as an editor or a deployment tool does. */
    private static void write(String content) throws Exception {
        Path tmp = file().resolveSibling(".reload.json.tmp");
        Files.writeString(tmp, content);
        Files.move(tmp, file(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String sha256(String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private TenantStatus awaitStatus(Predicate<TenantStatus> test, String what) {
        return awaitStatus("reload", test, what);
    }

    private TenantStatus awaitStatus(String tenant, Predicate<TenantStatus> test, String what) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            TenantStatus s = gateway.tenants().status(tenant).orElse(null);
            if (s != null && test.test(s)) {
                return s;
            }
            sleep(50);
        }
        throw new AssertionError("tenant status never showed " + what + ": " + gateway.tenants().status(tenant));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private McpHttpClient session() {
        return session(endpoint);
    }

    private static McpHttpClient session(URI endpoint) {
        McpHttpClient c = new McpHttpClient(endpoint);
        ObjectNode init = c.initialize("2025-11-25", Json.object());
        assertTrue(init.has("result"), init.toString());
        return c;
    }

    private static ObjectNode call(McpHttpClient c, String tool, String args) {
        return c.request("tools/call", Json.obj("{\"name\":\"" + tool + "\",\"arguments\":" + args + "}"));
    }

    private static List<String> toolNames(McpHttpClient c) {
        List<String> names = new ArrayList<>();
        c.request("tools/list", Json.object()).path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private double reloads(String outcome) throws Exception {
        return reloads(outcome, "reload");
    }

    private double reloads(String outcome, String tenant) throws Exception {
        String body = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("cloakgate_config_reloads_total\\{[^}]*outcome=\"" + outcome
                + "\"[^}]*tenant=\"" + tenant + "\"[^}]*\\} ([0-9.E]+)").matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** A call answered with a result whose text is what the probe echoes; anything else is a failed call. */
    private static String echoed(ObjectNode response) {
        if (response == null || !response.has("result") || response.path("result").path("isError").asBoolean()) {
            throw new AssertionError("call failed: " + response);
        }
        return response.path("result").path("content").path(0).path("text").asText();
    }

    /** Calls alpha__echo with {@code label}; true when the probe echoed it, else the failure is recorded. */
    private static boolean echoOnce(McpHttpClient c, String label, List<String> failures) {
        try {
            String text = echoed(call(c, "alpha__echo", "{\"text\":\"" + label + "\"}"));
            if (text.equals("alpha:" + label)) {
                return true;
            }
            failures.add(label + " got " + text);
        } catch (RuntimeException | AssertionError e) {
            failures.add(label + ": " + e);
        }
        return false;
    }

    @Test
    void theTenantFileChangesUnderSteadyTrafficWithoutAFailedCall() throws Exception {
        String v1 = Files.readString(file());
        String v2 = tenant(true, null, null);
        String v3 = tenant(true, "{\"tool_allowlist\":[\"alpha__echo\",\"beta__echo\"]}", null);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger sessions = new AtomicInteger();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        ExecutorService agents = Executors.newFixedThreadPool(2);
        List<Future<?>> running = new ArrayList<>();
        McpHttpClient first = session(); // made under the first configuration; kept throughout
        try {
            // one agent calls without pause in a session older than every change
            running.add(agents.submit(() -> {
                for (int i = 0; !stop.get(); i++) {
                    if (echoOnce(first, "steady-" + i, failures)) {
                        calls.incrementAndGet();
                    }
                }
            }));
            // another starts a new session for every call, so sessions start while the file changes
            running.add(agents.submit(() -> {
                for (int i = 0; !stop.get(); i++) {
                    try (McpHttpClient c = new McpHttpClient(endpoint)) {
                        ObjectNode init = c.initialize("2025-11-25", Json.object());
                        if (!init.has("result")) {
                            failures.add("initialize " + i + ": " + init);
                        } else if (echoOnce(c, "fresh-" + i, failures)) {
                            sessions.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        failures.add("fresh session " + i + ": " + e);
                    }
                }
            }));

            // 1. a new upstream: new sessions see it, the first session does not
            write(v2);
            awaitStatus(s -> sha256(v2).equals(s.digest()), "the second file loaded");
            McpHttpClient second = session();
            assertTrue(toolNames(second).contains("beta__echo"), "a session after the reload has the new upstream");
            assertEquals("beta:hi", echoed(call(second, "beta__echo", "{\"text\":\"hi\"}")));
            assertFalse(toolNames(first).contains("beta__echo"), "an existing session keeps its configuration");
            ObjectNode old = call(first, "beta__echo", "{\"text\":\"hi\"}");
            assertEquals("unknown_tool", old.path("error").path("data").path("reason").asText(), old.toString());

            // 2. an invalid file: refused, the second configuration goes on serving, readiness stays up
            double rejectedBefore = reloads("rejected");
            String invalid = tenant(true, null, "\"polcy\":{}");
            write(invalid);
            TenantStatus refused = awaitStatus(s -> s.fileRejected() && s.lastRejected() != null
                    && sha256(invalid).equals(s.lastRejected().digest()), "the invalid file refused");
            assertEquals("$.polcy", refused.lastRejected().path());
            assertEquals(file().toString(), refused.lastRejected().file());
            assertEquals(sha256(v2), refused.digest(), "the previous configuration still serves");
            assertTrue(refused.acceptingSessions());
            assertEquals(rejectedBefore + 1, reloads("rejected"), "the refusal is counted");
            assertEquals(200, http.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode(), "readiness stays up");
            try (McpHttpClient third = session()) {
                assertTrue(toolNames(third).contains("beta__echo"), "new sessions still get the second configuration");
            }

            // 3. a changed policy: alpha__slow is no longer allowed for new sessions; the second session keeps it
            write(v3);
            TenantStatus third = awaitStatus(s -> sha256(v3).equals(s.digest()), "the third file loaded");
            assertFalse(third.fileRejected());
            try (McpHttpClient fourth = session()) {
                ObjectNode refusedCall = call(fourth, "alpha__slow", "{\"ms\":10}");
                // discovery withholds a tool off the allowlist, and a call to it is refused as withheld
                assertEquals("tool_withheld", refusedCall.path("error").path("data").path("reason").asText(),
                        refusedCall.toString());
                assertEquals("[\"tool_allowlist\"]", refusedCall.path("error").path("data").path("controls").toString());
                assertEquals("alpha:x", echoed(call(fourth, "alpha__echo", "{\"text\":\"x\"}")));
            }
            assertFalse(call(second, "alpha__slow", "{\"ms\":10}").has("error"), "the second session keeps no policy");
            second.close();

            // 4. back to the first file
            write(v1);
            awaitStatus(s -> sha256(v1).equals(s.digest()), "the first file loaded again");
            assertEquals(3, reloads("accepted"));

            long until = System.nanoTime() + WAIT.toNanos();
            while ((calls.get() < 20 || sessions.get() < 5) && System.nanoTime() < until) {
                sleep(50);
            }
        } finally {
            stop.set(true);
            agents.shutdown();
            assertTrue(agents.awaitTermination(120, TimeUnit.SECONDS));
            first.close();
        }
        for (Future<?> f : running) {
            f.get();
        }
        assertEquals(List.of(), failures, "no call failed while the file changed");
        assertTrue(calls.get() >= 20 && sessions.get() >= 5, calls.get() + " steady calls, " + sessions.get() + " sessions");

        // each accepted file is on the ledger, the refused one is not
        List<String> loaded = new ArrayList<>();
        for (JsonNode entry : ledger("reload")) {
            if (entry.path("kind").asText().equals("config_loaded")) {
                loaded.add(entry.path("sha256").asText());
            }
        }
        assertEquals(List.of(sha256(v1), sha256(v2), sha256(v3), sha256(v1)), loaded);
    }

    /** The tenant's ledger entries as stored (where the evidence lands), after a flush. */
    private List<JsonNode> ledger(String tenant) {
        return StoredEntries.from(gateway.ledger(tenant), 0);
    }

    @Test
    void aTenantFileAddedThenRemovedWhileRunning() throws Exception {
        Path extra = file().resolveSibling("reload-extra.json");
        URI url = endpoint.resolve("/t/reload-extra/mcp");
        String content = tenant(false, null, null);
        Path tmp = file().resolveSibling(".reload-extra.json.tmp");
        Files.writeString(tmp, content);
        Files.move(tmp, extra, StandardCopyOption.ATOMIC_MOVE);
        awaitStatus("reload-extra", TenantStatus::acceptingSessions, "the new tenant taking sessions");
        try (McpHttpClient before = session(url)) {
            assertEquals("alpha:one", echoed(call(before, "alpha__echo", "{\"text\":\"one\"}")));

            Files.delete(extra);
            TenantStatus gone = awaitStatus("reload-extra", s -> !s.acceptingSessions(), "the tenant removed");
            assertTrue(gone.removedAt() != null);
            McpHttpClient.Raw refused = new McpHttpClient(url).post(Json.write(Json.obj("{\"jsonrpc\":\"2.0\",\"id\":1,"
                    + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"late\",\"version\":\"1\"}}}")));
            assertEquals(404, refused.status(), refused.body());
            assertEquals("unknown_tenant", refused.json().path("error").path("data").path("reason").asText());
            assertEquals("alpha:two", echoed(call(before, "alpha__echo", "{\"text\":\"two\"}")),
                    "a session of the removed tenant goes on until it ends");
        }
        assertEquals(1.0, reloads("removed", "reload-extra"));
        List<String> kinds = ledger("reload-extra").stream().map(e -> e.path("kind").asText()).toList();
        assertEquals("config_loaded", kinds.get(0), kinds.toString());
        assertTrue(kinds.contains("config_removed"), "the removal is on the tenant's ledger: " + kinds);
    }

    /** A tenant file of upstream alpha whose agents present static tokens: principal name to token. */
    private static String withTokens(Map<String, String> agents, String extraAuth) {
        ObjectNode t = (ObjectNode) Json.parse(tenant(false, null, null));
        ObjectNode auth = t.putObject("auth");
        ObjectNode principals = auth.putObject("principals");
        agents.forEach((name, token) -> {
            ObjectNode p = principals.putObject(name);
            p.putArray("roles").add("agent");
            p.putArray("tokens_sha256").add(sha256(token));
        });
        if (extraAuth != null) {
            principals.set("broken", Json.parse(extraAuth));
        }
        return Json.write(t);
    }

    private static McpHttpClient.Raw callRaw(McpHttpClient c, String text) {
        return c.post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"alpha__echo\","
                + "\"arguments\":{\"text\":\"" + text + "\"}}}");
    }

    private static String reason(McpHttpClient.Raw r) {
        return r.json().path("error").path("data").path("reason").asText();
    }

    /**
     * A reload brings the tenant's new {@code auth} block: a token taken out of the file is refused at once, also in
     * a session it opened; the principal's new token goes on in that session, which stays bound to its principal
     * (another principal's token on it is an unknown session). A file whose credentials cannot be set up (a token
     * file that does not exist) is refused like any invalid file, and the credentials before it go on working.
     */
    @Test
    void aReloadedTenantGetsItsNewCredentialsAndASessionKeepsItsPrincipal() throws Exception {
        Path file = file().resolveSibling("reload-auth.json");
        URI url = endpoint.resolve("/t/reload-auth/mcp");
        String aliceOld = "reload-alice-1-4f7a2c9e", aliceNew = "reload-alice-2-8b3d6e1f", bob = "reload-bob-5c0a9d2e";
        String v1 = withTokens(Map.of("alice", aliceOld, "bob", bob), null);
        Files.writeString(file.resolveSibling(".reload-auth.json.tmp"), v1);
        Files.move(file.resolveSibling(".reload-auth.json.tmp"), file, StandardCopyOption.ATOMIC_MOVE);
        awaitStatus("reload-auth", TenantStatus::acceptingSessions, "the tenant taking sessions");
        try (McpHttpClient alice = new McpHttpClient(url, aliceOld)) {
            assertTrue(alice.initialize("2025-11-25", Json.object()).has("result"));
            assertEquals("alpha:one", echoed(call(alice, "alpha__echo", "{\"text\":\"one\"}")));

            // alice's token is replaced in the file
            String v2 = withTokens(Map.of("alice", aliceNew, "bob", bob), null);
            write(file, v2);
            awaitStatus("reload-auth", s -> sha256(v2).equals(s.digest()), "the second file loaded");
            McpHttpClient.Raw revoked = callRaw(alice, "two");
            assertEquals(401, revoked.status(), "a token taken out of the file is refused at once: " + revoked.body());
            alice.bearer(bob);
            McpHttpClient.Raw other = callRaw(alice, "two");
            assertEquals(404, other.status(), other.body());
            assertEquals("unknown_session", reason(other), "the session stays bound to alice");
            alice.bearer(aliceNew);
            assertEquals("alpha:three", echoed(call(alice, "alpha__echo", "{\"text\":\"three\"}")),
                    "alice's new token goes on in her session");
            try (McpHttpClient late = new McpHttpClient(url, aliceOld)) {
                McpHttpClient.Raw r = late.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}");
                assertEquals(401, r.status(), r.body());
            }

            // credentials that cannot be set up: refused, the second file's go on
            String v3 = withTokens(Map.of("alice", aliceNew, "bob", bob),
                    "{\"roles\":[\"agent\"],\"token_file\":" + Json.write(com.fasterxml.jackson.databind.node.TextNode
                            .valueOf(file.resolveSibling("no-such-token-file").toString())) + "}");
            write(file, v3);
            TenantStatus refused = awaitStatus("reload-auth", s -> s.lastRejected() != null
                    && sha256(v3).equals(s.lastRejected().digest()), "the third file refused");
            assertEquals("$.auth.principals.broken.token_file", refused.lastRejected().path());
            assertEquals(sha256(v2), refused.digest());
            assertEquals("alpha:four", echoed(call(alice, "alpha__echo", "{\"text\":\"four\"}")),
                    "the credentials of the file serving go on working");
            try (McpHttpClient fresh = new McpHttpClient(url, bob)) {
                assertTrue(fresh.initialize("2025-11-25", Json.object()).has("result"), "and open new sessions");
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void write(Path file, String content) throws Exception {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
