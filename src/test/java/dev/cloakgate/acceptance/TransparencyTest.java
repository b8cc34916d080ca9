package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.McpStdioClient;
import dev.cloakgate.testing.McpTestClient;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.Transcript;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The gateway changes nothing it did not mean to: the same scripted session run straight at a real server and
 * through the gateway gives identical transcripts, except the intended differences (the gateway's serverInfo,
 * the tool-name prefix, the ids), with every tool's inputSchema identical byte for byte.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
public class TransparencyTest {

    @TestHTTPResource("/")
    URI root;

    @Test
    void filesystemOverStdio() {
        filesystemThrough("fs", "fs__");
    }

    @Test
    void filesystemAsADropInWithNamespaceNone() {
        filesystemThrough("fsnone", "");
    }

    @Test
    void withSanitizeOnTheFilesystemTranscriptDiffersOnlyInCloakedValues() {
        Path fsRoot = Path.of(System.getProperty("test.fs.root"));
        Transcript direct;
        try (McpTestClient c = new McpStdioClient(List.of("node", NodeFixtures.FILESYSTEM.toString(), fsRoot.toString()),
                null)) {
            direct = filesystemScript(c, fsRoot, "");
        }
        Transcript cloaked;
        try (McpTestClient c = new McpHttpClient(root.resolve("t/fs-cloaked/mcp"))) {
            cloaked = filesystemScript(c, fsRoot, "fs__");
        }
        assertOnlyCloakedValuesDiffer(direct, cloaked, "fs__");
    }

    @Test
    void withSanitizeOnTheEverythingTranscriptDiffersOnlyInCloakedValues() {
        Transcript direct;
        try (McpTestClient c = new McpHttpClient(URI.create(System.getProperty("test.everything.url")))) {
            direct = everythingScript(c, "");
        }
        Transcript cloaked;
        try (McpTestClient c = new McpHttpClient(root.resolve("t/everything-cloaked/mcp"))) {
            cloaked = everythingScript(c, "ev__");
        }
        assertOnlyCloakedValuesDiffer(direct, cloaked, "ev__");
    }

    /**
     * The protecting pass changes only values it cloaked: declarations (initialize, tools/list, prompts/list)
     * are identical, and every other string either equals the direct one or is it with tokens standing for
     * parts of it.
     */
    static void assertOnlyCloakedValuesDiffer(Transcript direct, Transcript cloaked, String prefix) {
        assertEquals(direct.entries().size(), cloaked.entries().size());
        int tokens = 0;
        for (int i = 0; i < direct.entries().size(); i++) {
            Transcript.Entry d = direct.entries().get(i);
            Transcript.Entry g = cloaked.entries().get(i);
            String m = d.method();
            if (m.equals("initialize") || m.equals("tools/list") || m.equals("prompts/list")) {
                Transcript one = new Transcript();
                one.entries().add(d);
                Transcript two = new Transcript();
                two.entries().add(g);
                assertSame(one, two, prefix);
                continue;
            }
            tokens += sameExceptTokens(normaliseTree(d.response()), normaliseTree(g.response()), "step " + i + " " + m);
        }
        assertTrue(tokens >= 0);
    }

    private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("\\[[A-Z_]+_(\\d+|REDACTED)]");

    /** Structural equality where a cloaked string may hold tokens for parts of the direct one; returns tokens seen. */
    private static int sameExceptTokens(JsonNode d, JsonNode g, String where) {
        if (d.isTextual() && g.isTextual()) {
            if (d.textValue().equals(g.textValue())) {
                return 0;
            }
            java.util.regex.Matcher m = TOKEN.matcher(g.textValue());
            StringBuilder re = new StringBuilder();
            int at = 0;
            int n = 0;
            while (m.find()) {
                re.append(java.util.regex.Pattern.quote(g.textValue().substring(at, m.start()))).append("(.+?)");
                at = m.end();
                n++;
            }
            re.append(java.util.regex.Pattern.quote(g.textValue().substring(at)));
            assertTrue(n > 0 && d.textValue().matches("(?s)" + re), where + ": changed without a token:\n  direct:  "
                    + d.textValue() + "\n  gateway: " + g.textValue());
            return n;
        }
        if (d.isNumber() && g.isTextual()) {
            assertTrue(TOKEN.matcher(g.textValue()).matches(), where + ": a number became " + g.textValue());
            return 1;
        }
        assertEquals(d.getNodeType(), g.getNodeType(), where);
        int n = 0;
        if (d.isObject()) {
            assertEquals(d.size(), g.size(), where + " keys");
            // keys by name; a key the tripwire renamed to its token pairs with the direct key it stood for
            List<String> unmatchedDirect = new java.util.ArrayList<>();
            List<String> unmatchedCloaked = new java.util.ArrayList<>();
            g.fieldNames().forEachRemaining(k -> {
                if (!d.has(k)) {
                    unmatchedCloaked.add(k);
                }
            });
            var dk = d.fieldNames();
            while (dk.hasNext()) {
                String a = dk.next();
                if (g.has(a)) {
                    n += sameExceptTokens(d.get(a), g.get(a), where + "/" + a);
                } else {
                    unmatchedDirect.add(a);
                }
            }
            for (int k = 0; k < unmatchedDirect.size(); k++) {
                String b = unmatchedCloaked.get(k);
                assertTrue(TOKEN.matcher(b).find(), where + ": key " + unmatchedDirect.get(k) + " became " + b);
                n += 1 + sameExceptTokens(d.get(unmatchedDirect.get(k)), g.get(b), where + "/" + b);
            }
        } else if (d.isArray()) {
            assertEquals(d.size(), g.size(), where + " items");
            for (int k = 0; k < d.size(); k++) {
                n += sameExceptTokens(d.get(k), g.get(k), where + "[" + k + "]");
            }
        } else {
            assertEquals(d, g, where);
        }
        return n;
    }

    private static JsonNode normaliseTree(JsonNode n) {
        return Json.parse(normalise(Json.write(n)));
    }

    private void filesystemThrough(String tenant, String prefix) {
        Path fsRoot = Path.of(System.getProperty("test.fs.root"));
        Transcript direct;
        try (McpTestClient c = new McpStdioClient(List.of("node", NodeFixtures.FILESYSTEM.toString(), fsRoot.toString()),
                null)) {
            direct = filesystemScript(c, fsRoot, "");
        }
        Transcript through;
        try (McpTestClient c = new McpHttpClient(root.resolve("t/" + tenant + "/mcp"))) {
            through = filesystemScript(c, fsRoot, prefix);
        }
        assertSame(direct, through, prefix);
    }

    @Test
    void everythingOverStreamableHttp() {
        URI upstream = URI.create(System.getProperty("test.everything.url"));
        Transcript direct;
        try (McpTestClient c = new McpHttpClient(upstream)) {
            direct = everythingScript(c, "");
        }
        Transcript through;
        try (McpTestClient c = new McpHttpClient(root.resolve("t/everything/mcp"))) {
            through = everythingScript(c, "ev__");
            // the one documented difference (issue 10): a tool name the upstream does not declare is refused before
            // it is sent (it may be personal data), where server-everything answers with an isError result
            ObjectNode unknown = c.request("tools/call", call("ev__no-such-tool", "{}"));
            assertEquals(-32602, unknown.path("error").path("code").asInt(), unknown.toString());
            assertEquals("unknown_tool", unknown.path("error").path("data").path("reason").asText(), unknown.toString());
        }
        assertSame(direct, through, "ev__");
    }

    public static Transcript filesystemScript(McpTestClient c, Path fsRoot, String prefix) {
        Transcript t = new Transcript();
        t.recordInitialize(c, "2025-11-25");
        t.record(c, "tools/list", Json.object());
        t.record(c, "tools/call", call(prefix + "list_allowed_directories", "{}"));
        t.record(c, "tools/call", call(prefix + "list_directory", "{\"path\":" + quote(fsRoot.toString()) + "}"));
        t.record(c, "tools/call", call(prefix + "read_text_file",
                "{\"path\":" + quote(fsRoot.resolve("hello.txt").toString()) + "}"));
        t.record(c, "tools/call", call(prefix + "read_text_file",
                "{\"path\":" + quote(fsRoot.resolve("missing.txt").toString()) + "}"));
        t.record(c, "tools/call", call(prefix + "directory_tree", "{\"path\":" + quote(fsRoot.toString()) + "}"));
        t.record(c, "tools/call", call(prefix + "read_text_file", "{\"path\":\"/etc/passwd\"}"));
        t.record(c, "tools/call", call(prefix + "read_text_file", "{}"));
        return t;
    }

    public static Transcript everythingScript(McpTestClient c, String prefix) {
        Transcript t = new Transcript();
        t.recordInitialize(c, "2025-11-25");
        t.record(c, "tools/list", Json.object());
        t.record(c, "tools/call", call(prefix + "echo", "{\"message\":\"hello through the gateway\"}"));
        t.record(c, "tools/call", call(prefix + "get-sum", "{\"a\":1.5,\"b\":2}"));
        t.record(c, "tools/call", call(prefix + "get-sum", "{\"a\":\"one\",\"b\":2}"));
        t.record(c, "tools/call", call(prefix + "get-tiny-image", "{}"));
        t.record(c, "tools/call", call(prefix + "get-structured-content", "{\"location\":\"New York\"}"));
        t.record(c, "tools/call", call(prefix + "get-annotated-message", "{\"messageType\":\"error\",\"includeImage\":true}"));
        t.record(c, "tools/call", call(prefix + "get-resource-links", "{\"count\":3}"));
        // not no-such-tool: a name the upstream does not declare is the gateway's unknown_tool (everythingOverStreamableHttp)
        t.record(c, "prompts/list", Json.object());
        t.record(c, "prompts/get", Json.obj("{\"name\":\"" + prefix + "simple-prompt\"}"));
        t.record(c, "prompts/get", Json.obj("{\"name\":\"" + prefix + "args-prompt\",\"arguments\":{\"city\":\"Lyon\"}}"));
        t.record(c, "completion/complete", Json.obj("{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"" + prefix
                + "completable-prompt\"},\"argument\":{\"name\":\"department\",\"value\":\"E\"}}"));
        JsonNode page = t.record(c, "resources/list", Json.object());
        String firstListed = page.path("result").path("resources").path(0).path("uri").asText();
        int pages = 1;
        while (page.path("result").path("nextCursor").isTextual() && pages < 20) {
            page = t.record(c, "resources/list",
                    Json.obj("{\"cursor\":" + quote(page.path("result").path("nextCursor").textValue()) + "}"));
            pages++;
        }
        t.record(c, "resources/templates/list", Json.object());
        t.record(c, "resources/read", Json.obj("{\"uri\":\"demo://resource/dynamic/text/1\"}"));
        // a listed (static) resource: blobs of dynamic ones embed the wall-clock time in base64
        t.record(c, "resources/read", Json.obj("{\"uri\":" + quote(firstListed) + "}"));
        t.record(c, "ping", Json.object());
        return t;
    }

    /** Compares entry by entry after undoing the intended differences. */
    public static void assertSame(Transcript direct, Transcript through, String prefix) {
        assertEquals(direct.entries().size(), through.entries().size());
        for (int i = 0; i < direct.entries().size(); i++) {
            Transcript.Entry d = direct.entries().get(i);
            Transcript.Entry g = through.entries().get(i);
            assertEquals(d.method(), g.method());
            ObjectNode dr = (ObjectNode) d.response().deepCopy();
            ObjectNode gr = (ObjectNode) g.response().deepCopy();
            switch (d.method()) {
                case "initialize" -> {
                    assertEquals("cloakgate", gr.path("result").path("serverInfo").path("name").asText());
                    ((ObjectNode) dr.get("result")).remove("serverInfo");
                    ((ObjectNode) gr.get("result")).remove("serverInfo");
                }
                case "tools/list", "prompts/list" -> {
                    String key = d.method().startsWith("tools") ? "tools" : "prompts";
                    JsonNode dItems = dr.path("result").path(key);
                    JsonNode gItems = gr.path("result").path(key);
                    assertEquals(dItems.size(), gItems.size(), key + " count");
                    assertFalse(dItems.isEmpty(), "the server lists " + key);
                    for (int k = 0; k < dItems.size(); k++) {
                        ObjectNode gi = (ObjectNode) gItems.get(k);
                        String name = gi.path("name").asText();
                        assertTrue(name.startsWith(prefix), name + " carries the prefix " + prefix);
                        gi.put("name", name.substring(prefix.length()));
                        if (key.equals("tools")) {
                            assertEquals(Json.write(dItems.get(k).get("inputSchema")), Json.write(gi.get("inputSchema")),
                                    "inputSchema of " + name + " byte for byte");
                        }
                    }
                }
                default -> {
                    // compared whole below
                }
            }
            // result and error byte for byte; the envelope's member order is not the gateway's to keep
            for (String member : List.of("result", "error")) {
                assertEquals(dr.has(member), gr.has(member), "step " + i + " " + d.method() + " has " + member);
                if (dr.has(member)) {
                    assertEquals(normalise(Json.write(dr.get(member))), normalise(Json.write(gr.get(member))),
                            "step " + i + " " + d.method() + " " + member);
                }
            }
            assertEquals(dr.path("jsonrpc"), gr.path("jsonrpc"));
        }
    }

    /** server-everything stamps dynamic resources with the wall-clock time; that is not the gateway's doing. */
    private static String normalise(String s) {
        return s.replaceAll("\\d{1,2}:\\d{2}:\\d{2}(\\s?[AP]M)?", "<time>");
    }

    private static ObjectNode call(String name, String args) {
        ObjectNode p = Json.object();
        p.put("name", name);
        p.set("arguments", Json.parse(args));
        return p;
    }

    private static String quote(String s) {
        return Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(s));
    }
}
