package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: three gateway processes (replicas r0, r1, r2 in cluster mode, each with its own data dir, the same signing
 * key) keep one tenant's ledger in one PostgreSQL database. Calls go through all; the auditor's HTTP export from
 * ANY replica is the whole log (every process's entries, one chain) and {@code ledger verify} accepts it with the
 * tenant's pinned keys; so does {@code ledger export} on the command line with the same datasource settings.
 */
class SharedLedgerIT {
    /** The cluster: three replicas, each exporting the whole log. */
    private static final int REPLICAS = 3;
    private static final String AUDITOR_TOKEN = "auditor-shared-ledger-3c1f9e7a5b2d";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void anExportFromEitherReplicaIsTheWholeLogAndVerifies(@TempDir Path dir) throws Exception {
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(AUDITOR_TOKEN.getBytes(StandardCharsets.UTF_8)));
        Files.writeString(tenants.resolve("team-p.json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                + Json.write(TextNode.valueOf(NodeFixtures.PROBE.toString())) + ",\"stdio\",\"--name\",\"alpha\"]}},"
                + "\"sanitize\":false,\"auth\":{\"mode\":\"none\",\"principals\":{\"audit\":{\"roles\":[\"auditor\"],"
                + "\"tokens_sha256\":[\"" + sha + "\"]}}}}");
        Path key = LedgerCrashIT.key(dir, "ledger.seed", 11); // one Secret, mounted on every replica
        TestPostgres.Database db = TestPostgres.server().database("shared_ledger_it");

        // cluster mode as the replicas run it: ids r0/r1, one cluster key, each other's addresses
        Path clusterKey = dir.resolve("cluster.key");
        byte[] secret = new byte[32];
        new java.security.SecureRandom().nextBytes(secret);
        Files.writeString(clusterKey, java.util.Base64.getEncoder().encodeToString(secret) + "\n");
        int[] ports = new int[REPLICAS];
        List<String> peerList = new ArrayList<>();
        for (int r = 0; r < REPLICAS; r++) {
            ports[r] = NodeFixtures.freePort();
            peerList.add("r" + r + "=http://127.0.0.1:" + ports[r]);
        }
        String peers = String.join(",", peerList);

        List<GatewayProcess> replicas = new ArrayList<>();
        try {
            for (int r = 0; r < REPLICAS; r++) {
                String id = "r" + r;
                List<String> props = new ArrayList<>(List.of("-Dcloakgate.tenants-dir=" + tenants,
                        "-Dcloakgate.data-dir=" + dir.resolve("data-" + id), "-Dcloakgate.ledger.signing-key-file=" + key,
                        "-Dcloakgate.ledger.log-identity=gateway.shared.example", "-Dcloakgate.cluster.replica-id=" + id,
                        "-Dcloakgate.cluster.key-file=" + clusterKey, "-Dcloakgate.cluster.peers=" + peers));
                props.addAll(db.gatewayProperties());
                GatewayProcess gw = GatewayProcess.start(props, ports[r]);
                replicas.add(gw);
                // one after the other: the second replica opens a ledger the first already created
                assertTrue(gw.awaitReady(Duration.ofSeconds(120)), gw.log());
            }
            // calls through both replicas; each replica's arguments have their own length, which its entries record
            for (int r = 0; r < REPLICAS; r++) {
                try (McpHttpClient c = new McpHttpClient(replicas.get(r).url("/t/team-p/mcp"))) {
                    c.initialize("2025-11-25", Json.object());
                    for (int i = 0; i < 5; i++) {
                        JsonNode answer = c.request("tools/call", Json.obj("{\"name\":\"alpha__echo\",\"arguments\":{\"text\":\""
                                + "r".repeat(10 + 100 * r) + "\"}}"));
                        assertTrue(answer.has("result"), answer.toString());
                    }
                }
            }
            GatewayProcess.Result keys = GatewayProcess.run(List.of("-Dcloakgate.ledger.signing-key-file=" + key,
                    "-Dcloakgate.ledger.log-identity=gateway.shared.example"), "ledger", "key", "--tenant", "team-p");
            assertEquals(0, keys.exit(), keys.output());
            List<String> pins = keys.output().lines().filter(l -> l.startsWith("gateway.shared.example/")).toList();
            assertEquals(2, pins.size(), keys.output());

            for (int r = 0; r < REPLICAS; r++) {
                Path bundle = dir.resolve("export-r" + r + ".zip");
                HttpResponse<Path> export = HTTP.send(HttpRequest.newBuilder(replicas.get(r).url("/admin/t/team-p/ledger/export"))
                        .header("Authorization", "Bearer " + AUDITOR_TOKEN).build(), HttpResponse.BodyHandlers.ofFile(bundle));
                assertEquals(200, export.statusCode(), replicas.get(r).log());
                GatewayProcess.Result verified = GatewayProcess.run(List.of(), "ledger", "verify", bundle.toString(),
                        "--tenant", "team-p", "--trust-key", pins.get(0), "--trust-key", pins.get(1));
                assertEquals(0, verified.exit(), verified.output());
                JsonNode report = Json.parse(verified.output().substring(verified.output().indexOf('{')));
                assertTrue(report.get("valid").asBoolean(), report.toString());

                // both processes' entries: each started (config_loaded) and each forwarded its calls
                int starts = 0;
                Set<Integer> callLengths = new HashSet<>();
                try (ZipFile zip = new ZipFile(bundle.toFile())) {
                    String jsonl = new String(zip.getInputStream(zip.getEntry("entries.jsonl")).readAllBytes(), StandardCharsets.UTF_8);
                    for (String line : jsonl.split("\n")) {
                        JsonNode e = Json.parse(line);
                        if (e.get("kind").asText().equals("config_loaded")) {
                            starts++;
                        } else if (e.get("kind").asText().equals("tool_call")) {
                            callLengths.add(e.path("payload").path("bytes").asInt());
                        }
                    }
                }
                assertEquals(REPLICAS, starts, "every replica's start is in the export of r" + r);
                assertEquals(REPLICAS, callLengths.size(), "every replica's calls are in the export of r" + r + ": " + callLengths);
                assertTrue(report.get("entries").asLong() >= 6L * REPLICAS, report.toString());
            }
            // the command line reads the same shared log through the same datasource settings
            List<String> cli = new ArrayList<>(List.of("-Dcloakgate.ledger.signing-key-file=" + key,
                    "-Dcloakgate.ledger.log-identity=gateway.shared.example", "-Dcloakgate.data-dir=" + dir.resolve("data-cli")));
            cli.addAll(db.gatewayProperties());
            Path cliBundle = dir.resolve("export-cli.zip");
            GatewayProcess.Result exported = GatewayProcess.run(cli, "ledger", "export", "--tenant", "team-p", "--out",
                    cliBundle.toString());
            assertEquals(0, exported.exit(), exported.output());
            GatewayProcess.Result cliVerified = GatewayProcess.run(List.of(), "ledger", "verify", cliBundle.toString(),
                    "--tenant", "team-p", "--trust-key", pins.get(0), "--trust-key", pins.get(1));
            assertEquals(0, cliVerified.exit(), cliVerified.output());
            try (ZipFile zip = new ZipFile(cliBundle.toFile())) {
                String jsonl = new String(zip.getInputStream(zip.getEntry("entries.jsonl")).readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(REPLICAS, jsonl.split("\"kind\":\"config_loaded\"", -1).length - 1, "every replica's start");
            }

            // a replica stopping (SIGTERM) writes what it queued and signs its final checkpoint while the pool is open
            for (GatewayProcess gw : replicas) {
                gw.process().destroy();
                gw.awaitExit(Duration.ofSeconds(60));
                assertTrue(gw.log().contains("ledger team-p: closed at size"), gw.log());
                assertTrue(!gw.log().contains("did not close cleanly"), gw.log());
            }
        } finally {
            replicas.forEach(GatewayProcess::close);
        }
    }
}
