package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.server.PinsCommand;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Tool pins when a real server's declarations drift between sessions, as the demo's filesystem server's did when
 * {@code npx} resolved another dependency (issue 10): each quarantine is logged with what changed and no upstream
 * text, counted, listed with its changes, shown old beside new, and accepted for the whole upstream at once after
 * the operator saw them.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class ToolPinsTest {
    @TestHTTPResource("/t/drift/mcp")
    URI drift;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    private static final Set<String> ALL = Set.of("dr__read_file", "dr__list_dir", "dr__stat", "dr__delete_file", "dr__about");

    @Test
    void aDriftedServerIsQuarantinedLoggedShownAndAcceptedByUpstream() throws Exception {
        Path variant = Path.of(System.getProperty("test.drift.variant"));
        Path data = Path.of(System.getProperty("test.data.dir"));
        Files.writeString(variant, "a");
        try (McpHttpClient c = session()) {
            assertEquals(ALL, tools(c), "first sight: every tool pinned and listed");
            assertEquals("stat:a", text(call(c, "dr__stat")));
        }

        Files.writeString(variant, "b"); // the next session's child declares the drifted set
        try (McpHttpClient c = session()) {
            assertEquals(Set.of("dr__about"), tools(c), "the four changed definitions are withheld");
            ObjectNode refused = call(c, "dr__read_file");
            assertEquals("tool_quarantined", refused.path("error").path("data").path("reason").asText(), refused.toString());
        }

        String log = Files.readString(Path.of(System.getProperty("test.gateway.log")));
        List<String> warned = log.lines().filter(l -> l.contains("WARN") && l.contains("tool pinning: tenant drift quarantined"))
                .toList();
        assertEquals(4, warned.size(), "one WARN per quarantined tool: " + warned);
        assertTrue(line(warned, "dr/read_file").contains("added /inputSchema/properties/encoding, added /inputSchema/properties/tail"),
                warned.toString());
        assertTrue(line(warned, "dr/list_dir").contains("changed /description"), warned.toString());
        assertTrue(line(warned, "dr/stat").contains("added /title"), warned.toString());
        assertTrue(line(warned, "dr/delete_file").contains("removed /annotations"), warned.toString());
        assertFalse(log.contains("zz-drift"), "the log carries pointers, never the upstream's texts");

        String scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(metrics).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(scrape.contains("cloakgate_tools_quarantined_total{tenant=\"drift\",upstream=\"dr\"} 4.0"), scrape);
        assertFalse(scrape.contains("zz-drift") || scrape.contains("read_file"), "no tool name or text in metrics");

        String listed = pins(data, "", "list", "--tenant", "drift");
        assertTrue(listed.startsWith("exit 0") && listed.contains("5 pinned tool(s), 4 quarantined"), listed);
        assertTrue(listed.contains("dr/list_dir ") && listed.contains("    changed /description"), listed);

        String diff = pins(data, "", "diff", "--tenant", "drift", "--tool", "dr/list_dir");
        assertTrue(diff.contains("- \"Lists a directory. zz-drift-desc-list\"")
                && diff.contains("+ \"Lists a directory, then zz-drift-desc-changed\""), "old beside new: " + diff);

        String declined = pins(data, "n\n", "accept", "--tenant", "drift", "--upstream", "dr");
        assertTrue(declined.startsWith("exit 1") && declined.contains("removed /annotations")
                && declined.contains("accept these 4 definition(s) of upstream dr?"), "shown, then not confirmed: " + declined);
        assertTrue(pins(data, "", "list", "--tenant", "drift").contains("4 quarantined"), "nothing accepted");

        String accepted = pins(data, "y\n", "accept", "--tenant", "drift", "--upstream", "dr");
        assertTrue(accepted.startsWith("exit 0") && accepted.contains("accepted 4 definition(s) of upstream dr"), accepted);
        try (McpHttpClient c = session()) {
            assertEquals(ALL, tools(c), "accepted: listed again");
            assertEquals("read_file:b", text(call(c, "dr__read_file")));
        }
        assertTrue(pins(data, "", "accept", "--tenant", "drift", "--upstream", "dr", "--yes")
                .contains("nothing pending for upstream dr"));
    }

    private static String line(List<String> lines, String tool) {
        return lines.stream().filter(l -> l.contains("quarantined " + tool + ",")).findFirst().orElse("(no line for " + tool + ")");
    }

    private McpHttpClient session() {
        McpHttpClient c = new McpHttpClient(drift);
        c.initialize("2025-11-25", Json.object());
        return c;
    }

    private static Set<String> tools(McpHttpClient c) {
        return new TreeSet<>(PolicyTest.tools(c));
    }

    private static ObjectNode call(McpHttpClient c, String tool) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", Json.parse("{\"path\":\"x\"}"));
        return c.request("tools/call", p);
    }

    private static String text(ObjectNode response) {
        return PolicyTest.text(response);
    }

    /** The operator's command, in process against the gateway's data dir, {@code input} on its stdin. */
    static String pins(Path data, String input, String... args) {
        String before = System.getProperty("cloakgate.data-dir");
        System.setProperty("cloakgate.data-dir", data.toString());
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            String[] all = new String[args.length + 1];
            all[0] = "pins";
            System.arraycopy(args, 0, all, 1, args.length);
            PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
            int code = new PinsCommand(ps, ps, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8))).run(all);
            return "exit " + code + "\n" + out.toString(StandardCharsets.UTF_8);
        } finally {
            if (before == null) {
                System.clearProperty("cloakgate.data-dir");
            } else {
                System.setProperty("cloakgate.data-dir", before);
            }
        }
    }
}
