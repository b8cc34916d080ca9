package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
 * Issue 9, item 1: the path sandbox judged relative paths against its first root, while the real filesystem
 * server resolves them against its own allowed directory. Here that directory is a parent P of the sandbox root
 * P/root, with a secret at P/outside/secret.txt: every relative, empty or scheme-shaped path (and every other way
 * the server reads a string differently from the gateway) must be refused before the server sees it, and the
 * secret must never reach the client.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class SandboxEscapeTest {
    private static final String SECRET = "sandbox-secret-4f1c9d";
    /** read_media_file answers with the file's bytes in base64. */
    private static final String SECRET_BASE64 = java.util.Base64.getEncoder().encodeToString((SECRET + "\n").getBytes(
            java.nio.charset.StandardCharsets.UTF_8));

    @TestHTTPResource("/t/sandbox-rel/mcp")
    URI rel;

    @TestHTTPResource("/t/sandbox-base/mcp")
    URI based;

    @TestHTTPResource("/t/sandbox-demo/mcp")
    URI demoLike;

    private static McpHttpClient session(URI uri) {
        McpHttpClient c = new McpHttpClient(uri);
        c.initialize("2025-11-25", Json.object());
        return c;
    }

    private static ObjectNode call(McpHttpClient c, String tool, JsonNode args) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", args);
        return c.request("tools/call", p);
    }

    private static String q(Object s) {
        return Json.write(Json.MAPPER.valueToTree(s));
    }

    /** One attempt: the exposed tool and its arguments as JSON. */
    private record Attempt(String tool, String args) {
    }

    /**
     * Runs every attempt in one session and collects what went wrong, so that a failure lists every attempt that
     * got through rather than the first.
     */
    private static List<String> refusedEach(URI uri, List<Attempt> attempts) {
        List<String> wrong = new ArrayList<>();
        try (McpHttpClient c = session(uri)) {
            for (Attempt a : attempts) {
                ObjectNode r = call(c, a.tool, Json.parse(a.args));
                JsonNode e = r.path("error");
                String got = r.toString();
                if (got.contains(SECRET) || got.contains(SECRET_BASE64)) {
                    wrong.add(a + " leaked the secret: " + got);
                } else if (e.path("code").asInt() != -32001 || !"path_outside_sandbox".equals(e.path("data").path("reason").asText())
                        || !e.path("data").path("controls").toString().contains("path_sandbox")) {
                    wrong.add(a + " was not refused as path_outside_sandbox: " + got);
                }
            }
        }
        return wrong;
    }

    private static String text(ObjectNode response) {
        assertFalse(response.has("error"), response.toString());
        return response.path("result").path("content").path(0).path("text").asText(response.toString());
    }

    @Test
    void relativeEmptyAndSchemeShapedPathsAreRefusedOnEveryTool() throws Exception {
        Path p = Path.of(System.getProperty("test.sandbox.rel"));
        String inside = p.resolve("root/inside.txt").toString();
        List<Attempt> attempts = List.of(
                // the attempts of the issue
                new Attempt("fs__read_text_file", "{\"path\":\"outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"ab:/../outside/secret.txt\"}"),
                new Attempt("fs__list_directory", "{\"path\":\"\"}"),
                new Attempt("fs__list_directory", "{\"path\":\".\"}"),
                new Attempt("fs__read_multiple_files", "{\"paths\":[" + q(inside) + ",\"outside/secret.txt\"]}"),
                new Attempt("fs__get_file_info", "{\"path\":\"outside/secret.txt\"}"),
                // the same class on every tool that takes a path
                new Attempt("fs__read_text_file", "{\"path\":\"./outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"root/../outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"https://evil.example/../../outside/secret.txt\"}"),
                new Attempt("fs__read_file", "{\"path\":\"outside/secret.txt\"}"),
                new Attempt("fs__read_media_file", "{\"path\":\"outside/secret.txt\"}"),
                new Attempt("fs__read_multiple_files", "{\"paths\":[\"outside/secret.txt\"]}"),
                new Attempt("fs__list_directory_with_sizes", "{\"path\":\".\"}"),
                new Attempt("fs__directory_tree", "{\"path\":\"\"}"),
                new Attempt("fs__search_files", "{\"path\":\".\",\"pattern\":\"secret\"}"),
                new Attempt("fs__move_file", "{\"source\":\"outside/secret.txt\",\"destination\":"
                        + q(p.resolve("root/stolen.txt").toString()) + "}"),
                new Attempt("fs__move_file", "{\"source\":" + q(inside) + ",\"destination\":\"outside/moved.txt\"}"),
                new Attempt("fs__write_file", "{\"path\":\"outside/planted.txt\",\"content\":\"planted\"}"),
                new Attempt("fs__edit_file", "{\"path\":\"outside/secret.txt\",\"edits\":[{\"oldText\":\"sandbox\","
                        + "\"newText\":\"edited\"}]}"),
                new Attempt("fs__create_directory", "{\"path\":\"outside/made\"}"),
                // Node does not percent-decode: it reads a%2Fb as one name, and the two .. climb out of the root
                new Attempt("fs__read_text_file", "{\"path\":" + q(p.resolve("root") + "/a%2Fb/../../outside/secret.txt") + "}"));
        List<String> wrong = refusedEach(rel, attempts);
        assertTrue(wrong.isEmpty(), wrong.size() + " of " + attempts.size() + " attempts got through:\n"
                + String.join("\n", wrong));
        // proved where it would land: nothing moved, written, edited or created outside the root
        assertEquals(SECRET + "\n", Files.readString(p.resolve("outside/secret.txt")));
        assertTrue(Files.exists(p.resolve("root/inside.txt")));
        for (String absent : List.of("outside/planted.txt", "outside/moved.txt", "outside/made", "root/stolen.txt")) {
            assertFalse(Files.exists(p.resolve(absent)), absent);
        }
    }

    @Test
    void absolutePathsInsideTheRootStillWork() {
        Path p = Path.of(System.getProperty("test.sandbox.rel"));
        String inside = p.resolve("root/inside.txt").toString();
        try (McpHttpClient c = session(rel)) {
            assertEquals("inside the sandbox root\n", text(call(c, "fs__read_text_file", Json.parse("{\"path\":" + q(inside) + "}"))));
            assertTrue(text(call(c, "fs__list_directory", Json.parse("{\"path\":" + q(p.resolve("root").toString()) + "}")))
                    .contains("inside.txt"));
            assertTrue(text(call(c, "fs__read_multiple_files", Json.parse("{\"paths\":[" + q(inside) + "]}")))
                    .contains("inside the sandbox root"));
        }
    }

    @Test
    void withADeclaredBaseRelativePathsInsideWorkAndRelativeEscapesAreRefused() throws Exception {
        Path p = Path.of(System.getProperty("test.sandbox.base"));
        try (McpHttpClient c = session(based)) {
            assertEquals("inside the based root\n", text(call(c, "fs__read_text_file", Json.parse("{\"path\":\"root/inside.txt\"}"))));
            assertEquals("inside the based root\n", text(call(c, "fs__read_text_file", Json.parse("{\"path\":\"./root/./inside.txt\"}"))));
            assertTrue(text(call(c, "fs__list_directory", Json.parse("{\"path\":\"root\"}"))).contains("inside.txt"));
            assertTrue(text(call(c, "fs__get_file_info", Json.parse("{\"path\":\"root/inside.txt\"}"))).contains("isFile: true"));
            String both = text(call(c, "fs__read_multiple_files", Json.parse("{\"paths\":[\"root/inside.txt\","
                    + q(p.resolve("root/inside.txt").toString()) + "]}")));
            assertEquals(2, both.split("inside the based root", -1).length - 1, both);
        }
        List<Attempt> attempts = List.of(
                new Attempt("fs__read_text_file", "{\"path\":\"outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"root/../outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"../sandbox-base/outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"ab:/../outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"https://evil.example/../outside/secret.txt\"}"),
                new Attempt("fs__read_text_file", "{\"path\":\"root/a%2Fb/../../outside/secret.txt\"}"),
                new Attempt("fs__list_directory", "{\"path\":\"\"}"),
                new Attempt("fs__list_directory", "{\"path\":\".\"}"),
                new Attempt("fs__list_directory", "{\"path\":\"..\"}"),
                new Attempt("fs__read_multiple_files", "{\"paths\":[\"root/inside.txt\",\"outside/secret.txt\"]}"),
                new Attempt("fs__get_file_info", "{\"path\":\"outside/secret.txt\"}"),
                new Attempt("fs__move_file", "{\"source\":\"root/inside.txt\",\"destination\":\"outside/moved.txt\"}"));
        List<String> wrong = refusedEach(based, attempts);
        assertTrue(wrong.isEmpty(), wrong.size() + " of " + attempts.size() + " attempts got through:\n"
                + String.join("\n", wrong));
        assertTrue(Files.exists(p.resolve("root/inside.txt")));
        assertFalse(Files.exists(p.resolve("outside/moved.txt")));
    }

    @Test
    void theClientsRootsCannotMoveADeclaredBase() throws Exception {
        // server-filesystem replaces its directories with the client's MCP roots: had it taken them, "secret.txt"
        // (judged against the declared base, where no such file is) would open the secret beside the root
        Path p = Path.of(System.getProperty("test.sandbox.demo"));
        String outsideUri = p.resolve("outside").toUri().toString();
        Path log = Path.of(System.getProperty("test.gateway.log"));
        try (McpHttpClient c = new McpHttpClient(demoLike).answering(req -> "roots/list".equals(req.path("method").asText())
                ? Json.obj("{\"roots\":[{\"uri\":" + q(outsideUri) + ",\"name\":\"elsewhere\"}]}") : Json.object())) {
            c.initialize("2025-11-25", Json.obj("{\"roots\":{\"listChanged\":true}}"));
            try (McpHttpClient.GetStream get = c.openGet(null)) {
                assertEquals(200, get.status());
                c.notify("notifications/roots/list_changed", null);
                String marker = "session " + dev.cloakgate.evidence.LogTag.of(c.sessionId())
                        + ": roots/list from upstream fs withheld";
                long end = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
                boolean askedClient = false;
                boolean withheld = false;
                while (!askedClient && !withheld && System.nanoTime() < end) {
                    Thread.sleep(100);
                    askedClient = c.serverRequests().stream().anyMatch(m -> "roots/list".equals(m.path("method").asText()));
                    withheld = Files.exists(log) && Files.readString(log).contains(marker);
                }
                assertTrue(askedClient || withheld, "the upstream never asked for roots");
                if (askedClient) {
                    // let the server apply the roots it got, to show what they do
                    while (System.nanoTime() < end && !text(call(c, "fs__list_allowed_directories", Json.object()))
                            .contains("outside")) {
                        Thread.sleep(100);
                    }
                }
                ObjectNode r = call(c, "fs__read_text_file", Json.parse("{\"path\":\"secret.txt\"}"));
                assertFalse(r.toString().contains(SECRET), "the client's roots moved the upstream's base: " + r);
                String dirs = text(call(c, "fs__list_allowed_directories", Json.object()));
                assertFalse(dirs.contains("outside"), dirs);
                assertFalse(askedClient, "roots/list reached the client from an upstream whose base is declared");
            }
        }
    }

    @Test
    void theDemoLikeTenantResolvesRelativePathsInsideItsRoot() {
        try (McpHttpClient c = session(demoLike)) {
            assertEquals("inside the demo-like root\n", text(call(c, "fs__read_text_file", Json.parse("{\"path\":\"inside.txt\"}"))));
            assertTrue(text(call(c, "fs__list_directory", Json.parse("{\"path\":\"\"}"))).contains("inside.txt"));
            assertTrue(text(call(c, "fs__list_directory", Json.parse("{\"path\":\".\"}"))).contains("inside.txt"));
        }
        List<String> wrong = refusedEach(demoLike, List.of(
                new Attempt("fs__read_text_file", "{\"path\":\"../outside/secret.txt\"}"),
                new Attempt("fs__list_directory", "{\"path\":\"..\"}"),
                new Attempt("fs__read_multiple_files", "{\"paths\":[\"inside.txt\",\"../outside/secret.txt\"]}")));
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }
}
