package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;

/**
 * Issue 15, through the packaged jar as an operator and an auditor run it: the configured log identity names each
 * tenant's log; {@code ledger key --tenant} prints its verifier keys in the signed-note form and {@code ledger verify}
 * accepts them, pinning the tenant; a genuine export of another tenant is invalid once pinned; a rotation with the
 * previous key configured is followed by an auditor who pinned only the old keys; an identity that contradicts the
 * ledgers refuses the start, as does one that is not an identity.
 */
class LedgerIdentityIT {
    private static final String ID = "gateway.acme.example/prod";

    private static void startAndStop(List<String> props) throws Exception {
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            gw.process().destroy();
            gw.awaitExit(Duration.ofSeconds(30));
        }
    }

    private static JsonNode verify(Path bundle, String tenant, List<String> keys, int exit) throws Exception {
        List<String> args = new ArrayList<>(List.of("ledger", "verify", bundle.toString(), "--tenant", tenant));
        keys.forEach(k -> {
            args.add("--trust-key");
            args.add(k);
        });
        GatewayProcess.Result v = GatewayProcess.run(List.of(), args.toArray(String[]::new));
        assertEquals(exit, v.exit(), v.output());
        return Json.parse(v.output().substring(v.output().indexOf('{')));
    }

    @Test
    void operatorsAndAuditorsUseTheLogsOwnNamesKeysAndRotation(@TempDir Path dir) throws Exception {
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        Path data = dir.resolve("data");
        for (String t : List.of("team-i", "team-j")) {
            Files.writeString(tenants.resolve(t + ".json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                    + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(NodeFixtures.PROBE.toString()))
                    + ",\"stdio\",\"--name\",\"alpha\"]}},\"sanitize\":false,\"auth\":{\"mode\":\"none\"}}");
        }
        Path key1 = LedgerCrashIT.key(dir, "key1.seed", 7);
        List<String> props = List.of("-Dcloakgate.tenants-dir=" + tenants, "-Dcloakgate.data-dir=" + data,
                "-Dcloakgate.ledger.signing-key-file=" + key1, "-Dcloakgate.ledger.log-identity=" + ID);
        String logged;
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            logged = gw.log();
            gw.process().destroy();
            gw.awaitExit(Duration.ofSeconds(30));
        }

        GatewayProcess.Result printed = GatewayProcess.run(props, "ledger", "key", "--tenant", "team-i");
        assertEquals(0, printed.exit(), printed.output());
        List<String> keys = GateOperator.verifierKeys(printed.output());
        assertTrue(keys.get(0).startsWith(ID + "/ledger/team-i+"), "the checkpoint key is named as the origin: " + keys);
        assertTrue(printed.output().contains("line 1 the checkpoint key, line 2 the export manifest key"), printed.output());
        assertTrue(logged.contains("ledger team-i: origin " + ID + "/ledger/team-i, checkpoint key " + keys.get(0)
                + ", manifest key " + keys.get(1)), "the gateway logs the same keys at start: " + logged);

        Path bundle = dir.resolve("team-i.zip");
        GatewayProcess.Result exported = GatewayProcess.run(props, "ledger", "export", "--tenant", "team-i", "--out",
                bundle.toString());
        assertEquals(0, exported.exit(), exported.output());
        assertTrue(exported.output().contains("--trust-key " + keys.get(0) + " --trust-key " + keys.get(1)), exported.output());
        JsonNode ok = verify(bundle, "team-i", keys, 0);
        assertEquals(ID + "/ledger/team-i", ok.path("origin").asText());
        assertTrue(ok.path("pinned").asBoolean());

        // a genuine export of the other tenant, with its own keys trusted: not the log the auditor pinned
        Path other = dir.resolve("team-j.zip");
        assertEquals(0, GatewayProcess.run(props, "ledger", "export", "--tenant", "team-j", "--out", other.toString()).exit());
        List<String> otherKeys = GateOperator.verifierKeys(GatewayProcess.run(props, "ledger", "key", "--tenant", "team-j").output());
        JsonNode wrongLog = verify(other, "team-i", otherKeys, 1);
        assertEquals("pinned_tenant_mismatch", wrongLog.path("failures").get(0).path("check").asText(), wrongLog.toString());

        // a new key, the old one configured for this start: the auditor who pinned the old keys follows the rotation
        Path key2 = LedgerCrashIT.key(dir, "key2.seed", 9);
        List<String> rotated = List.of("-Dcloakgate.tenants-dir=" + tenants, "-Dcloakgate.data-dir=" + data,
                "-Dcloakgate.ledger.signing-key-file=" + key2, "-Dcloakgate.ledger.previous-signing-key-file=" + key1,
                "-Dcloakgate.ledger.log-identity=" + ID);
        startAndStop(rotated);
        Path after = dir.resolve("team-i-after.zip");
        assertEquals(0, GatewayProcess.run(rotated, "ledger", "export", "--tenant", "team-i", "--out", after.toString()).exit());
        JsonNode followed = verify(after, "team-i", keys, 0);
        assertEquals(1, followed.path("rotations_followed").size(), followed.toString());
        List<String> newKeys = GateOperator.verifierKeys(GatewayProcess.run(rotated, "ledger", "key", "--tenant", "team-i").output());
        assertNotEquals(keys, newKeys);
        verify(after, "team-i", newKeys, 1); // the new keys alone do not cover the checkpoints before the rotation

        // the logs' names never change: another identity, or none that is one, refuses the start
        List<String> renamed = List.of("-Dcloakgate.tenants-dir=" + tenants, "-Dcloakgate.data-dir=" + data,
                "-Dcloakgate.ledger.signing-key-file=" + key2, "-Dcloakgate.ledger.log-identity=other.example");
        try (GatewayProcess gw = GatewayProcess.start(renamed)) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(90)));
            assertTrue(gw.log().contains("ledger_origin_mismatch") && gw.log().contains("cloakgate.ledger.log-identity=" + ID),
                    gw.log());
        }
        GatewayProcess.Result keyRefused = GatewayProcess.run(renamed, "ledger", "key", "--tenant", "team-i");
        assertEquals(2, keyRefused.exit(), keyRefused.output());
        assertTrue(keyRefused.output().contains("ledger_origin_mismatch"), keyRefused.output());
        try (GatewayProcess gw = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + tenants, "-Dcloakgate.data-dir=" + data,
                "-Dcloakgate.ledger.signing-key-file=" + key2, "-Dcloakgate.ledger.log-identity=https://" + ID))) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(90)));
            assertTrue(gw.log().contains("invalid_log_identity"), gw.log());
            assertFalse(gw.log().contains("Listening on"), gw.log());
        }
    }
}
