package dev.cloakgate.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class ReleaseManifestTest {
    static final String YAML = """
            apiVersion: cloakpipe.co/v1alpha1
            kind: Release
            metadata:
              name: crm-agent
              labels:
                team: sales
            spec:
              tools:
                - tool:crm__patch@4
                - tool:fs__read_text_file@2025.1
              policies:
                - policy:crm-tools@sha256:%s
              mcpServers:
                crm:
                  serverInfo: { name: acme-crm, version: 1.2.0 }
                  toolsDigest: sha256:%s
                fs:
                  serverInfo: { name: secure-filesystem-server }
            """.formatted("a".repeat(64), "b".repeat(64));
    static final String JSON = """
            {"spec": {"mcpServers": {"fs": {"serverInfo": {"name": "secure-filesystem-server"}},
               "crm": {"toolsDigest": "sha256:%s", "serverInfo": {"version": "1.2.0", "name": "acme-crm"}}},
             "policies": ["policy:crm-tools@sha256:%s"],
             "tools": ["tool:crm__patch@4", "tool:fs__read_text_file@2025.1"]},
             "metadata": {"labels": {"team": "sales"}, "name": "crm-agent"},
             "kind": "Release", "apiVersion": "cloakpipe.co/v1alpha1"}
            """.formatted("b".repeat(64), "a".repeat(64));

    static ReleaseManifest parse(String text) {
        return ReleaseManifest.parse(text.getBytes(StandardCharsets.UTF_8), "release manifest test");
    }

    static String refusal(String text) {
        return assertThrows(IllegalArgumentException.class, () -> parse(text)).getMessage();
    }

    @Test
    void readsTheManifest() {
        ReleaseManifest m = parse(YAML);
        assertEquals("crm-agent", m.name());
        assertEquals(List.of("crm__patch", "fs__read_text_file"), List.copyOf(m.tools().keySet()));
        assertEquals("2025.1", m.tools().get("fs__read_text_file").version());
        assertTrue(m.declares("crm__patch"));
        assertFalse(m.declares("crm__delete"));
        assertFalse(m.declares("crm__patch@4"));
        assertEquals("policy:crm-tools@sha256:" + "a".repeat(64), m.policies().get(0).ref());
        assertEquals(new ReleaseManifest.ServerIdentity("acme-crm", "1.2.0", "sha256:" + "b".repeat(64)),
                m.mcpServers().get("crm"));
        assertEquals(new ReleaseManifest.ServerIdentity("secure-filesystem-server", null, null), m.mcpServers().get("fs"));
        assertTrue(m.releaseHash().matches("sha256:[0-9a-f]{64}"));
        assertEquals("sha256:" + m.releaseHex(), m.releaseHash());
    }

    @Test
    void yamlAndJsonOfTheSameManifestHaveOneReleaseHash() {
        assertEquals(parse(YAML).releaseHash(), parse(JSON).releaseHash());
    }

    /** The hash by hand: SHA-256 over the domain, a newline and the canonical bytes (written out here, not by Jcs). */
    @Test
    void theReleaseHashIsSha256OverTheDomainANewlineAndTheCanonicalBytes() throws Exception {
        String canonical = "{\"apiVersion\":\"cloakgate.dev/v1alpha1\",\"kind\":\"Release\",\"metadata\":{\"name\":\"r\"},"
                + "\"spec\":{\"tools\":[\"tool:a@1\"]}}";
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                ("cloakpipe.co/release/v1\n" + canonical).getBytes(StandardCharsets.UTF_8)));
        ReleaseManifest m = parse("kind: Release\napiVersion: cloakgate.dev/v1alpha1\nspec: {tools: [\"tool:a@1\"]}\n"
                + "metadata: {name: r}\n");
        assertEquals("sha256:" + expected, m.releaseHash());
    }

    @Test
    void oneByteChangesTheHash() {
        assertNotEquals(parse(YAML).releaseHash(), parse(YAML.replace("tool:crm__patch@4", "tool:crm__patch@5")).releaseHash());
        assertNotEquals(parse(YAML).releaseHash(), parse(YAML.replace("team: sales", "team: salez")).releaseHash());
    }

    @Test
    void unknownKeysAreRefusedWithTheirPath() {
        assertTrue(refusal(YAML + "status: {}\n").contains(": status is not a known key"));
        assertTrue(refusal(YAML.replace("  name: crm-agent", "  name: crm-agent\n  namespace: x"))
                .contains("metadata.namespace is not a known key"));
        assertTrue(refusal(YAML + "  models: []\n").contains("spec.models is not a known key"));
        assertTrue(refusal(YAML.replace("      toolsDigest:", "      tools: []\n      toolsDigest:"))
                .contains("spec.mcpServers.crm.tools is not a known key"));
        assertTrue(refusal(YAML.replace("version: 1.2.0", "version: 1.2.0, vendor: acme"))
                .contains("spec.mcpServers.crm.serverInfo.vendor is not a known key"));
    }

    @Test
    void malformedEntriesAreRefused() {
        assertTrue(refusal(YAML.replace("    - tool:fs__read_text_file@2025.1", "    - tool:crm__patch@5"))
                .contains("spec.tools[1] tool crm__patch is listed twice"));
        assertTrue(refusal(YAML.replace("tool:crm__patch@4", "crm__patch")).contains("spec.tools[0] must be tool:"));
        assertTrue(refusal(YAML.replace("tool:crm__patch@4", "tool:crm__patch@")).contains("spec.tools[0]"));
        assertTrue(refusal(YAML.replace("tool:crm__patch@4", "tool:crm patch@4")).contains("spec.tools[0]"));
        assertTrue(refusal(YAML.replace("@sha256:" + "a".repeat(64), "@sha256:" + "A".repeat(64)))
                .contains("spec.policies[0] must be policy:"));
        assertTrue(refusal(YAML.replace("toolsDigest: sha256:", "toolsDigest: sha1:")).contains("toolsDigest"));
        assertTrue(refusal(YAML.replace("  crm:\n", "  crm_x:\n")).contains("spec.mcpServers.crm_x"));
        assertTrue(refusal(YAML.replace("cloakpipe.co/v1alpha1", "cloakpipe.co/v1")).contains("apiVersion must be"));
        assertTrue(refusal(YAML.replace("kind: Release", "kind: ToolContract")).contains("kind must be Release"));
        assertTrue(refusal(YAML.replace("team: sales", "team: 7")).contains("metadata.labels.team must be a string"));
        assertTrue(refusal(YAML.replace("  name: crm-agent\n", "")).contains("metadata.name must be a string"));
        assertTrue(refusal(YAML.replace("  tools:\n    - tool:crm__patch@4\n    - tool:fs__read_text_file@2025.1\n", ""))
                .contains("spec.tools must be a list"));
        // the refusal never quotes a document it could not read
        assertFalse(refusal("{\"spec\": \"secret-value\", \"spec\": 1}").contains("secret-value"));
    }

    @Test
    void theToolsDigestIgnoresOrderAndPagingButNotADefinitionChange() throws Exception {
        ObjectMapper om = new ObjectMapper();
        JsonNode a = om.readTree("{\"name\":\"a\",\"description\":\"reads\",\"inputSchema\":{\"type\":\"object\"}}");
        JsonNode b = om.readTree("{\"name\":\"b\",\"inputSchema\":{\"type\":\"object\"},\"_meta\":{\"x\":1}}");
        String digest = ReleaseManifest.toolsDigest(List.of(a, b));
        assertTrue(digest.matches("sha256:[0-9a-f]{64}"));
        assertEquals(digest, ReleaseManifest.toolsDigest(List.of(b, a)));
        // what pinning does not cover (as _meta) does not count; what it covers does
        JsonNode bNoMeta = om.readTree("{\"inputSchema\":{\"type\":\"object\"},\"name\":\"b\"}");
        assertEquals(digest, ReleaseManifest.toolsDigest(List.of(a, bNoMeta)));
        JsonNode a2 = om.readTree("{\"name\":\"a\",\"description\":\"reads!\",\"inputSchema\":{\"type\":\"object\"}}");
        assertNotEquals(digest, ReleaseManifest.toolsDigest(List.of(a2, b)));
        // by hand: the domain, a newline, the canonical array sorted by name
        String canonical = "[{\"description\":\"reads\",\"inputSchema\":{\"type\":\"object\"},\"name\":\"a\"},"
                + "{\"inputSchema\":{\"type\":\"object\"},\"name\":\"b\"}]";
        assertEquals("sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                ("cloakpipe.co/mcp-tools/v1\n" + canonical).getBytes(StandardCharsets.UTF_8))), digest);
        assertThrows(IllegalArgumentException.class, () -> ReleaseManifest.toolsDigest(List.of(a, a2)));
        assertThrows(IllegalArgumentException.class, () -> ReleaseManifest.toolsDigest(List.of(om.readTree("{}"))));
        assertNull(parse(YAML).mcpServers().get("fs").toolsDigest());
    }
}
