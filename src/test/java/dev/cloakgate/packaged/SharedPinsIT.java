package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.cloakgate.testing.AdminHttp;
import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: tool pins shared by two packaged replicas ({@code cloakgate.store=postgresql}, own data dirs, one database).
 * A tool pinned through r0 whose definition then drifts is quarantined on r1 too, and the drift accepted through r0's
 * admin API is served again by r1: the upstream's listing as r1's agents see it is the proof.
 */
class SharedPinsIT {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void aPinAcceptedThroughOneReplicaTakesEffectOnTheOther(@TempDir Path dir) throws Exception {
        Path variant = dir.resolve("variant");
        Files.writeString(variant, "a");
        byte[] secret = new byte[24];
        new java.security.SecureRandom().nextBytes(secret);
        String token = "ops-" + HexFormat.of().formatHex(secret);
        String sha = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(StandardCharsets.UTF_8)));
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        Files.writeString(tenants.resolve("drift.json"), "{\"upstreams\":{\"dr\":{\"command\":\"node\",\"args\":["
                + Json.write(TextNode.valueOf(NodeFixtures.DIR.resolve("drift-server.mjs").toString())) + ",\"stdio\",\"--variant-file\","
                + Json.write(TextNode.valueOf(variant.toString())) + "]}},\"sanitize\":false,\"policy\":{},"
                + "\"auth\":{\"mode\":\"none\",\"principals\":{\"ops\":{\"roles\":[\"operator\"],\"tokens_sha256\":[\"" + sha + "\"]}}}}");
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        Files.writeString(dir.resolve("cluster.key"), Base64.getEncoder().encodeToString(key));
        TestPostgres.Database db = TestPostgres.server().database("shared_pins");
        int p0 = NodeFixtures.freePort();
        int p1 = NodeFixtures.freePort();
        String peers = "r0=http://127.0.0.1:" + p0 + ",r1=http://127.0.0.1:" + p1;
        try (GatewayProcess r0 = replica(dir, db, "r0", p0, peers); GatewayProcess r1 = replica(dir, db, "r1", p1, peers)) {
            assertTrue(r0.awaitReady(WAIT), r0.log());
            assertTrue(r1.awaitReady(WAIT), r1.log());
            assertTrue(tools(p0).contains("dr__list_dir"), "first sight through r0 pins every tool");

            Files.writeString(variant, "b"); // the server drifts: a new session's child declares variant b
            List<String> onR1 = tools(p1);
            assertFalse(onR1.contains("dr__list_dir"), "r1 quarantines what r0 pinned (its description changed): " + onR1);
            assertTrue(onR1.contains("dr__about"), "an unchanged tool is served: " + onR1);

            AdminHttp admin0 = new AdminHttp(URI.create("http://127.0.0.1:" + p0 + "/admin/t/"));
            AdminHttp.Answer pending = admin0.send("GET", "drift/pins/pending", token);
            assertEquals(200, pending.status(), pending.body());
            JsonNode accept = pending.json().path("accept");
            assertTrue(accept.has("dr/list_dir"), pending.body());
            AdminHttp.Answer accepted = admin0.send("POST", "drift/pins/accept", token, Json.write(accept));
            assertEquals(200, accepted.status(), accepted.body());

            List<String> after = tools(p1);
            assertTrue(after.contains("dr__list_dir"), "accepted through r0, served by r1: " + after);
        }
    }

    private static GatewayProcess replica(Path dir, TestPostgres.Database db, String id, int port, String peers) throws Exception {
        List<String> props = new ArrayList<>(db.gatewayProperties());
        props.addAll(List.of("-Dcloakgate.tenants-dir=" + dir.resolve("tenants"), "-Dcloakgate.data-dir=" + dir.resolve("data-" + id),
                "-Dcloakgate.cluster.replica-id=" + id, "-Dcloakgate.cluster.key-file=" + dir.resolve("cluster.key"),
                "-Dcloakgate.cluster.peers=" + peers, "-Dcloakgate.ledger.log-identity=shared.pins.example",
                "-Dcloakgate.ledger.signing-key-file=" + signingKey(dir)));
        return GatewayProcess.start(props, port);
    }

    /** The tools a new session on the replica at {@code port} is offered. */
    private static List<String> tools(int port) {
        McpHttpClient agent = new McpHttpClient(URI.create("http://127.0.0.1:" + port + "/t/drift/mcp"));
        assertTrue(agent.initialize("2025-06-18", Json.object()).has("result"));
        List<String> names = new ArrayList<>();
        for (JsonNode t : agent.request("tools/list", Json.object()).path("result").path("tools")) {
            names.add(t.path("name").asText());
        }
        return names;
    }

    /** One signing key for the replicas' one log per tenant (written once per test directory). */
    private static Path signingKey(Path dir) throws java.io.IOException {
        Path key = dir.resolve("ledger.key");
        if (!Files.exists(key)) {
            byte[] seed = new byte[32];
            new java.security.SecureRandom().nextBytes(seed);
            Files.writeString(key, java.util.HexFormat.of().formatHex(seed));
        }
        return key;
    }
}
