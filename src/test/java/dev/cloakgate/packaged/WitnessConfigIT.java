package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.TextNode;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;

/** Issue 15: a witness entry the gateway cannot use stops the start with {@code ledger_witness_invalid}, naming the entry. */
class WitnessConfigIT {
    private static final String VKEY = "witness.example.com/w1+7e6f4aaa+BNdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea";

    @Test
    void aWitnessOverPlainHttpToAnotherHostStopsTheStart(@TempDir Path dir) throws Exception {
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        Files.writeString(tenants.resolve("team-w.json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                + Json.write(TextNode.valueOf(NodeFixtures.PROBE.toString())) + ",\"stdio\"]}},\"sanitize\":false,"
                + "\"auth\":{\"mode\":\"none\"}}");
        try (GatewayProcess gw = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + tenants,
                "-Dcloakgate.ledger.dev-key=true",
                "-Dcloakgate.ledger.witnesses=" + VKEY + "@https://w.example/a," + VKEY + "@http://w.example/b"))) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(90)), gw.log());
            String log = gw.log();
            assertTrue(log.contains("ledger_witness_invalid: cloakgate.ledger.witnesses[1]: the witness URL must be https"), log);
        }
    }
}
