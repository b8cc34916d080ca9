package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The tenant file's gate block (issue 11): every key checked for its form, every mistake named by its path. */
class GateBlockParserTest {
    private static final String UP = "{\"upstreams\":{\"crm\":{\"command\":\"x\"}},\"auth\":{\"mode\":\"none\"},";
    private static final String KEY = "0123456789abcdef=" + "a".repeat(64);
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of()), Path.of("/srv"));

    @Test
    void readsEveryKeyWithItsDefaults() throws Exception {
        GateSettings g = parse(UP + "\"gate\":{\"manifest\":\"rel/release.yaml\",\"trust_keys\":[\"" + KEY + "\"],"
                + "\"environment\":\"production\"}}").gate();
        assertEquals(Path.of("/srv/rel/release.yaml"), g.manifest());
        assertNull(g.certification());
        assertEquals(GateSettings.Mode.ENFORCE, g.mode());
        assertEquals(Duration.ZERO, g.approvalWait());
        assertEquals(Duration.ofSeconds(60), g.clockSkew());
        assertNull(g.approvalsDir());

        GateSettings all = parse(UP + "\"gate\":{\"manifest\":\"/m.json\",\"certification\":\"/c.json\",\"trust_keys\":[\""
                + KEY.toUpperCase() + "\"],\"revoked_statements\":[\"sha256:" + "b".repeat(64) + "\"],\"revoked_keys\":"
                + "[\"fedcba9876543210\"],\"environment\":\"staging\",\"mode\":\"warn\",\"contracts\":[\"/k.yaml\"],"
                + "\"orchestrator_keys\":[\"" + KEY + "\"],\"approver_keys\":[\"" + KEY + "\"],\"approvals_dir\":\"/a\","
                + "\"approval_wait_seconds\":30,\"clock_skew_seconds\":5}}").gate();
        assertEquals(List.of(KEY), all.trustKeys());
        assertEquals(GateSettings.Mode.WARN, all.mode());
        assertEquals(List.of(Path.of("/k.yaml")), all.contracts());
        assertEquals(Duration.ofSeconds(30), all.approvalWait());
        assertNull(parse(UP.substring(0, UP.length() - 1) + "}").gate());
    }

    @Test
    void eachMistakeIsNamedByItsPath() {
        String base = "\"manifest\":\"/m\",\"trust_keys\":[\"" + KEY + "\"],\"environment\":\"p\"";
        assertEquals("$.gate.manifst", failure("{\"manifst\":\"/m\"," + base + "}").path());
        assertEquals("$.gate.manifest", failure("{\"trust_keys\":[\"" + KEY + "\"],\"environment\":\"p\"}").path());
        assertEquals("$.gate.trust_keys", failure("{\"manifest\":\"/m\",\"environment\":\"p\"}").path());
        assertEquals("$.gate.trust_keys[0]", failure("{\"manifest\":\"/m\",\"trust_keys\":[\"abc\"],\"environment\":\"p\"}").path());
        assertEquals("$.gate.environment", failure("{\"manifest\":\"/m\",\"trust_keys\":[\"" + KEY + "\"]}").path());
        assertEquals("$.gate.mode", failure("{" + base + ",\"mode\":\"audit\"}").path());
        assertEquals("$.gate.revoked_statements[0]", failure("{" + base + ",\"revoked_statements\":[\"abc\"]}").path());
        assertEquals("$.gate.revoked_keys[0]", failure("{" + base + ",\"revoked_keys\":[\"x\"]}").path());
        assertEquals("$.gate.approval_wait_seconds", failure("{" + base + ",\"approval_wait_seconds\":-1}").path());
        assertEquals("$.gate.contracts", failure("{" + base + ",\"contracts\":\"/k\"}").path());
    }

    private TenantConfig parse(String json) throws TenantConfigException {
        return parser.parse("t", "t.json", json.getBytes(StandardCharsets.UTF_8));
    }

    private TenantConfigException failure(String gate) {
        return assertThrows(TenantConfigException.class, () -> parse(UP + "\"gate\":" + gate + "}"));
    }
}
