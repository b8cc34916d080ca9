package dev.cloakgate.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.control.ToolPinning;

/** The pins in a file ({@link FilePinStore}): the {@link PinStoreContract}, and what the file adds. */
class PinStoreTest extends PinStoreContract {
    @TempDir
    Path dir;

    @Override
    PinStore open() {
        return new FilePinStore(dir, "t");
    }

    @Test
    void aChangeIsWrittenWholeWithNoTemporaryFileLeftBehind() throws Exception {
        PinStore pins = open();
        pins.check("fs", "read", "a".repeat(64));
        pins.check("fs", "read", "b".repeat(64));
        assertTrue(open().accept("fs/read", "b".repeat(64)));
        assertTrue(Files.exists(dir.resolve("pins/t.json")));
        assertFalse(Files.exists(dir.resolve("pins/t.json.tmp")), "no temporary file left behind");
    }

    @Test
    void anUnreadablePinFileQuarantinesInsteadOfStartingOver() throws Exception {
        Files.createDirectories(dir.resolve("pins"));
        Files.writeString(dir.resolve("pins/t.json"), "{\"tools\": {");
        PinStore pins = new FilePinStore(dir, "t");
        IOException e = assertThrows(IOException.class, () -> pins.check("fs", "read", "a".repeat(64)));
        assertTrue(e.getMessage().contains("t.json"), e.getMessage());
        ObjectNode decl = (ObjectNode) new ObjectMapper().readTree("{\"name\":\"read\",\"description\":\"Reads.\",\"inputSchema\":{}}");
        Decision d = new PolicyEngine(List.of(new ToolPinning(pins))).evaluate(
                new Subject(Stage.DISCOVERY, "s", "fs", "fs__read", "read", decl, decl.deepCopy(), false));
        assertEquals("tool_quarantined", ((Decision.Block) d).reason());
    }

    @Test
    void theDefinitionHashIgnoresKeyOrderButCoversTitleAndAnnotations() throws Exception {
        ObjectMapper m = new ObjectMapper();
        String base = ToolPinning.definitionHash((ObjectNode) m.readTree(
                "{\"name\":\"r\",\"description\":\"Reads.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}"));
        assertEquals(base, ToolPinning.definitionHash((ObjectNode) m.readTree(
                "{\"inputSchema\":{\"properties\":{},\"type\":\"object\"},\"description\":\"Reads.\",\"name\":\"r\","
                        + "\"_meta\":{\"x\":1}}")), "key order and unpinned parts (_meta) do not count");
        for (String changed : List.of(
                "{\"name\":\"r\",\"description\":\"Reads, and more.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}",
                "{\"name\":\"r\",\"title\":\"Reader\",\"description\":\"Reads.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}",
                // a destructive tool that stops saying so would leave the approval hold: a change like any other
                "{\"name\":\"r\",\"description\":\"Reads.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}},"
                        + "\"annotations\":{\"destructiveHint\":false}}")) {
            assertFalse(base.equals(ToolPinning.definitionHash((ObjectNode) m.readTree(changed))), changed);
        }
    }

    @Test
    void aVersionOnePinIsCarriedOverWhenTheSameDefinitionIsSeenAgain() throws Exception {
        ObjectMapper m = new ObjectMapper();
        ObjectNode decl = (ObjectNode) m.readTree("{\"name\":\"read\",\"description\":\"Reads.\",\"inputSchema\":{},"
                + "\"annotations\":{\"readOnlyHint\":true}}");
        // what version 1 stored: the hash of name, description and inputSchema, no definition
        ObjectNode v1 = m.createObjectNode();
        v1.set("name", decl.get("name"));
        v1.set("description", decl.get("description"));
        v1.set("inputSchema", decl.get("inputSchema"));
        Files.createDirectories(dir.resolve("pins"));
        Files.writeString(dir.resolve("pins/t.json"), "{\"version\":1,\"tools\":{\"fs/read\":{\"sha256\":\""
                + CanonicalJson.sha256(v1) + "\",\"pinned_at\":\"2026-01-01T00:00:00Z\"}}}");
        PinStore pins = new FilePinStore(dir, "t");
        Decision d = new PolicyEngine(List.of(new ToolPinning(pins))).evaluate(
                new Subject(Stage.DISCOVERY, "s", "fs", "fs__read", "read", decl, decl.deepCopy(), false));
        assertEquals(Action.ALLOW, d.action(), "an upgrade quarantines nothing that did not change");
        PinStore.Pin p = pins.all().get("fs/read");
        assertEquals(ToolPinning.definitionHash(decl), p.sha256(), "carried over to the full hash");
        assertEquals(decl.get("annotations"), p.definition().get("annotations"), "with the definition kept");
        assertTrue(Files.readString(dir.resolve("pins/t.json")).contains("\"version\" : 2"));
    }

    @Test
    void theDiffNamesEachChangedPartByPointerAndHidesKeysThatMayBeValues() throws Exception {
        ObjectMapper m = new ObjectMapper();
        List<DefinitionDiff.Change> changes = DefinitionDiff.of(
                m.readTree("{\"description\":\"a\",\"inputSchema\":{\"properties\":{\"p/x\":{\"type\":\"string\"},"
                        + "\"marie.dubois@example.fr\":{}},\"required\":[\"p/x\"]},\"annotations\":{\"destructiveHint\":true}}"),
                m.readTree("{\"description\":\"a\",\"inputSchema\":{\"properties\":{\"p/x\":{\"type\":\"integer\"},"
                        + "\"q\":{}},\"required\":[\"p/x\",\"q\"]},\"title\":\"T\"}"));
        assertEquals(List.of("changed /inputSchema/properties/p~1x/type", "removed /inputSchema/properties/marie.dubois@example.fr",
                "added /inputSchema/properties/q", "changed /inputSchema/required", "removed /annotations", "added /title"),
                changes.stream().map(c -> c.kind().code() + " " + c.pointer()).toList());
        String logged = DefinitionDiff.summary(changes, 3);
        assertFalse(logged.contains("marie") || logged.contains("p/x"), "the log names such keys by position: " + logged);
        assertTrue(logged.endsWith("and 3 more"), logged);
    }
}
