package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.NodeFixtures;

/**
 * The ledger of the packaged gateway as operators run it: killed with SIGKILL while agents call tools, its
 * ledger still exports and verifies offline, and the restarted gateway continues the same chain; a second
 * gateway on the same data refuses to start and says why; a new signing key is recorded as a rotation.
 */
class LedgerCrashIT {

    /** The tenant log's verifier keys (checkpoint, manifest), derived from the key file as the gateway derives them. */
    private static String[] trust(Path keyFile, Path data) throws Exception {
        return dev.cloakgate.ledger.BundleKit.vkeys(data, "team-l", Ed25519SigningKey.fromFile(keyFile)).toArray(String[]::new);
    }

    private static String[] both(String[] a, String[] b) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(a), java.util.Arrays.stream(b)).toArray(String[]::new);
    }

    private static String keyId(String vkey) {
        return dev.cloakgate.crypto.NoteVerifier.parse(vkey).keyId().hex();
    }

    /** A signing key file of 32 bytes {@code fill}, as 64 hex digits (also for LedgerIdentityIT). */
    static Path key(Path dir, String name, int fill) throws Exception {
        byte[] seed = new byte[32];
        java.util.Arrays.fill(seed, (byte) fill);
        Path f = dir.resolve(name);
        Files.writeString(f, HexFormat.of().formatHex(seed) + "\n");
        return f;
    }

    private static List<String> lines(Path bundle) throws Exception {
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(bundle.toFile())) {
            String text = new String(zip.getInputStream(zip.getEntry("entries.jsonl")).readAllBytes(), StandardCharsets.UTF_8);
            return List.of(text.split("\n"));
        }
    }

    private static Path exportAndVerify(List<String> props, Path out, String... trustKeys) throws Exception {
        GatewayProcess.Result ex = GatewayProcess.run(props, "ledger", "export", "--tenant", "team-l", "--out", out.toString());
        assertEquals(0, ex.exit(), ex.output());
        List<String> args = new ArrayList<>(List.of("ledger", "verify", out.toString()));
        for (String k : trustKeys) {
            args.add("--trust-key");
            args.add(k);
        }
        GatewayProcess.Result v = GatewayProcess.run(List.of(), args.toArray(String[]::new));
        assertEquals(0, v.exit(), v.output());
        assertTrue(Json.parse(v.output().substring(v.output().indexOf('{'))).path("valid").asBoolean(), v.output());
        return out;
    }

    @Test
    void sigkillUnderLoadLeavesAVerifiableLedgerThatTheNextStartContinues(@TempDir Path dir) throws Exception {
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        Path data = dir.resolve("data");
        Files.writeString(tenants.resolve("team-l.json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(NodeFixtures.PROBE.toString()))
                + ",\"stdio\",\"--name\",\"alpha\"]}},\"sanitize\":false,\"policy\":{},\"auth\":{\"mode\":\"none\"}}");
        Path key1 = key(dir, "key1.seed", 7);
        List<String> props = List.of("-Dcloakgate.tenants-dir=" + tenants, "-Dcloakgate.data-dir=" + data,
                "-Dcloakgate.ledger.signing-key-file=" + key1, "-Dcloakgate.ledger.checkpoint-every=50");

        List<String> first;
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger calls = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> agents = new ArrayList<>();
            for (int a = 0; a < 4; a++) {
                agents.add(pool.submit(() -> {
                    try (McpHttpClient c = new McpHttpClient(gw.url("/t/team-l/mcp"))) {
                        c.initialize("2025-11-25", Json.object());
                        while (!stop.get()) {
                            c.request("tools/call", Json.obj("{\"name\":\"alpha__echo\",\"arguments\":{\"text\":\"x\"}}"));
                            calls.incrementAndGet();
                        }
                    } catch (RuntimeException killed) {
                        // the gateway died under this agent: expected
                    }
                    return null;
                }));
            }
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (calls.get() < 300 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertTrue(calls.get() >= 50, "load ran: " + calls.get() + " calls\n" + gw.log());

            // a second gateway on the same ledger refuses to start, naming the lock and its holder
            try (GatewayProcess second = GatewayProcess.start(props)) {
                assertNotEquals(0, second.awaitExit(Duration.ofSeconds(90)));
                assertTrue(second.log().contains("team-l.lock") && second.log().contains("pid " + gw.process().pid()),
                        second.log());
            }

            gw.process().destroyForcibly(); // SIGKILL, mid-append
            gw.process().waitFor();
            stop.set(true);
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS));
        }
        first = lines(exportAndVerify(props, dir.resolve("after-kill.zip"), trust(key1, data)));
        assertTrue(first.size() >= 100, "entries recorded before the kill: " + first.size());

        // the next start checks the whole chain, then continues it
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            try (McpHttpClient c = new McpHttpClient(gw.url("/t/team-l/mcp"))) {
                c.initialize("2025-11-25", Json.object());
                c.request("tools/call", Json.obj("{\"name\":\"alpha__echo\",\"arguments\":{\"text\":\"after\"}}"));
            }
            gw.process().destroy();
            gw.awaitExit(Duration.ofSeconds(30));
        }
        List<String> second = lines(exportAndVerify(props, dir.resolve("after-restart.zip"), trust(key1, data)));
        assertTrue(second.size() > first.size(), second.size() + " vs " + first.size());
        assertEquals(first, second.subList(0, first.size()), "the restarted gateway continued the same chain");

        // a new key: the ledger records the rotation; the old checkpoints need the old key to verify
        Path key2 = key(dir, "key2.seed", 9);
        List<String> rotated = List.of("-Dcloakgate.tenants-dir=" + tenants, "-Dcloakgate.data-dir=" + data,
                "-Dcloakgate.ledger.signing-key-file=" + key2);
        try (GatewayProcess gw = GatewayProcess.start(rotated)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            assertTrue(gw.log().contains("checkpoint key " + trust(key2, data)[0]), gw.log());
            gw.process().destroy();
            gw.awaitExit(Duration.ofSeconds(30));
        }
        Path bundle = exportAndVerify(rotated, dir.resolve("after-rotation.zip"), both(trust(key1, data), trust(key2, data)));
        JsonNode rotation = lines(bundle).stream().map(Json::parse).filter(e -> e.path("kind").asText().equals("key_rotated"))
                .findFirst().orElseThrow(() -> new AssertionError("no key_rotated entry"));
        assertEquals(keyId(trust(key1, data)[0]), rotation.path("from_key").asText());
        assertEquals(keyId(trust(key2, data)[0]), rotation.path("to_key").asText());
        GatewayProcess.Result onlyNew = GatewayProcess.run(List.of(), "ledger", "verify", bundle.toString(), "--trust-key",
                trust(key2, data)[0], "--trust-key", trust(key2, data)[1]);
        assertEquals(1, onlyNew.exit(), "checkpoints signed by the retired key are not trusted without it: " + onlyNew.output());
    }
}
