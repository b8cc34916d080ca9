package dev.cloakgate.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.SigningKeys;

/** Events become entries of their tenant's ledger, sessions digested; what cannot be recorded is counted. */
class LedgerEvidenceTest {
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void eachEventIsAnEntryOfItsTenantWithTheSessionDigested() throws Exception {
        Ledger ledger = Ledger.open(dir, "acme", new dev.cloakgate.ledger.LedgerKeyring(
                Ed25519SigningKey.generate(new SecureRandom()), java.util.Optional.empty(),
                dev.cloakgate.ledger.LogIdentity.configured("gw.example")));
        LedgerEvidence evidence = new LedgerEvidence(Map.of("acme", ledger),
                Map.of("acme", new LedgerEntries(id -> "digest-of-" + id.length())));
        evidence.record(new Event.Cloaked("acme", "sess-123", "crm", "tools/call", Map.of("EMAIL", 2, "PERSON", 1), Map.of()));
        evidence.record(new Event.CrossUpstreamRestore("acme", "sess-123", Set.of("fs", "crm"), "mail", "send", "EMAIL", false));
        evidence.record(new Event.RawPiiWritten("acme", "sess-123", "mail", "send", Map.of("PHONE", 1)));
        evidence.record(new Event.Decided("acme", "0123abcd", "request", "mail", "mail__send", "block", "egress_denied",
                List.of("egress_control"), List.of(new Event.Noted("egress_control", "block", "egress_denied",
                        "/arguments/url: host outside the allowlist", false)), 42, "f".repeat(64)));
        evidence.record(new Event.ConfigLoaded("acme", "acme.json", "e".repeat(64)));
        evidence.record(new Event.SelfChecked("acme", List.of("EMAIL", "PHONE"), 0));
        evidence.record(new Event.RawPiiWritten("other", "s", "u", "t", Map.of("EMAIL", 1))); // no ledger: ignored
        ledger.flush();
        List<byte[]> stored = ledger.store().read(0, ledger.store().lastSeq());
        assertEquals(6, stored.size());
        JsonNode cloaked = M.readTree(new String(stored.get(0), StandardCharsets.UTF_8));
        assertEquals("cloaked", cloaked.path("kind").asText());
        assertEquals("digest-of-8", cloaked.path("session").asText(), "never the session id itself");
        assertEquals(2, cloaked.path("categories").path("EMAIL").asInt());
        assertFalse(cloaked.has("tripwire"), "only when the tripwire caught something");
        JsonNode restore = M.readTree(new String(stored.get(1), StandardCharsets.UTF_8));
        assertEquals("[\"crm\",\"fs\"]", restore.path("from").toString(), "sorted, so the bytes do not depend on set order");
        JsonNode decision = M.readTree(new String(stored.get(3), StandardCharsets.UTF_8));
        assertEquals("decision", decision.path("kind").asText());
        assertEquals("0123abcd", decision.path("session").asText(), "already a digest");
        assertEquals("egress_denied", decision.path("reason").asText());
        assertEquals(42, decision.path("payload").path("bytes").asInt());
        assertEquals("self_check", M.readTree(stored.get(5)).path("kind").asText());
        assertTrue(M.readTree(stored.get(5)).path("passed").asBoolean());
        assertEquals(0, evidence.lost());

        ledger.close();
        evidence.record(new Event.ConfigLoaded("acme", "acme.json", "e".repeat(64)));
        long until = System.nanoTime() + 5_000_000_000L;
        while (evidence.lost() == 0 && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals(1, evidence.lost(), "an entry the ledger refused is counted, never silently dropped");
    }
}
