package dev.cloakgate.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Issue 11: the gate's ledger entries, and every entry bound to the release while a manifest is active. */
class GateEntriesTest {
    private static final String SESSION = "0123456789abcdef0123456789abcdef";
    private final LedgerEntries entries = new LedgerEntries(s -> "digest-of-" + s.length());

    @Test
    void gateEntriesCarryCodesAndDigestsNeverTheSessionId() {
        ObjectNode call = entries.body(new Event.GateDecided("t", SESSION, "crm", "crm__patch", "sha256:ab", "block",
                "argument_enum", "spec.tools.crm__patch.arguments.patch.properties.stage", null, null));
        assertEquals("mcp_tool_call", call.path("kind").asText());
        assertEquals("argument_enum", call.path("gate_denial").asText());
        assertEquals("spec.tools.crm__patch.arguments.patch.properties.stage", call.path("gate_path").asText());
        assertEquals("digest-of-32", call.path("session").asText());
        assertFalse(call.toString().contains(SESSION));

        ObjectNode result = entries.body(new Event.OperationSettled("t", SESSION, "crm__patch", "sha256:ab", "op-1", "done"));
        assertEquals("mcp_tool_result", result.path("kind").asText());
        assertEquals("done", result.path("operation_state").asText());
        ObjectNode reconciled = entries.body(new Event.OperationReconciled("t", "ops", "op-1", "not_applied"));
        assertEquals("operation_reconciled", reconciled.path("kind").asText());
        assertEquals("not_applied", reconciled.path("operation_state").asText());
    }

    @Test
    void everyEntryCarriesTheReleaseWhileOneIsBound() {
        Event loaded = new Event.ConfigLoaded("t", "t.json", "ff");
        assertFalse(entries.body(loaded).has("release"));
        entries.bindRelease("sha256:" + "c".repeat(64));
        assertEquals("sha256:" + "c".repeat(64), entries.body(loaded).path("release").asText());
        assertEquals("sha256:" + "c".repeat(64), entries.body(new Event.SelfChecked("t", java.util.List.of(), 0))
                .path("release").asText());
        entries.bindRelease(null);
        assertFalse(entries.body(loaded).has("release"));
        assertTrue(LoggedEvidence.line(new Event.GateDecided("t", SESSION, "u", "x", null, "warn", "r", null, null, null))
                .contains("session=" + LogTag.of(SESSION)));
        assertFalse(LoggedEvidence.line(new Event.OperationSettled("t", SESSION, "x", null, "op", "unknown"))
                .contains(SESSION));
    }
}
