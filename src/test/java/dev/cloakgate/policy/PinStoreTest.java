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

class PinStoreTest {
    @TempDir
    Path dir;

    @Test
    void pinsAtFirstSightQuarantinesAChangeAndAcceptsOnlyThePendingHash() throws Exception {
        PinStore pins = new PinStore(dir, "t");
        String a = "a".repeat(64);
        String b = "b".repeat(64);
        assertEquals(PinStore.Check.PINNED_NOW, pins.check("fs", "read", a));
        assertEquals(PinStore.Check.SAME, pins.check("fs", "read", a));
        assertEquals(PinStore.Check.CHANGED, pins.check("fs", "read", b));
        assertEquals(b, pins.all().get("fs/read").pending());
        // another process (the admin command) sees the same file
        PinStore other = new PinStore(dir, "t");
        assertFalse(other.accept("fs/read", "c".repeat(64)));
        assertTrue(other.accept("fs/read", b));
        assertEquals(PinStore.Check.SAME, pins.check("fs", "read", b), "the running gateway picks up the acceptance");
        assertEquals(PinStore.Check.CHANGED, pins.check("fs", "read", a), "the old definition is now the change");
        assertFalse(Files.exists(dir.resolve("pins/t.json.tmp")), "no temporary file left behind");
    }

    @Test
    void anUnreadablePinFileQuarantinesInsteadOfStartingOver() throws Exception {
        Files.createDirectories(dir.resolve("pins"));
        Files.writeString(dir.resolve("pins/t.json"), "{\"tools\": {");
        PinStore pins = new PinStore(dir, "t");
        IOException e = assertThrows(IOException.class, () -> pins.check("fs", "read", "a".repeat(64)));
        assertTrue(e.getMessage().contains("t.json"), e.getMessage());
        ObjectNode decl = (ObjectNode) new ObjectMapper().readTree("{\"name\":\"read\",\"description\":\"Reads.\",\"inputSchema\":{}}");
        Decision d = new PolicyEngine(List.of(new ToolPinning(pins))).evaluate(
                new Subject(Stage.DISCOVERY, "s", "fs", "fs__read", "read", decl, decl.deepCopy(), false));
        assertEquals("tool_quarantined", ((Decision.Block) d).reason());
    }

    @Test
    void theDefinitionHashIgnoresKeyOrderAndAnnotationsButNotTheDescription() throws Exception {
        ObjectMapper m = new ObjectMapper();
        String h1 = ToolPinning.definitionHash((ObjectNode) m.readTree(
                "{\"name\":\"r\",\"description\":\"Reads.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}"));
        String h2 = ToolPinning.definitionHash((ObjectNode) m.readTree(
                "{\"inputSchema\":{\"properties\":{},\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true},\"description\":\"Reads.\",\"name\":\"r\"}"));
        String h3 = ToolPinning.definitionHash((ObjectNode) m.readTree(
                "{\"name\":\"r\",\"description\":\"Reads, and more.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}"));
        assertEquals(h1, h2);
        assertFalse(h1.equals(h3));
    }
}
