package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.NodeFixtures;

/**
 * Issue 16, the gateway as an OAuth client measured by the official suite: each client scenario of
 * {@code @modelcontextprotocol/conformance} 0.1.16 that the suite's reference client passes runs with
 * {@code oauth-adapter.mjs} as its client, which puts this packaged gateway in front of the scenario's server (a
 * tenant file written into the watched tenants dir, hot-reloaded) and drives a session through it; the scenario's
 * own servers and authorization server judge what the gateway did. Each must end with no FAILURE check.
 */
class UpstreamOAuthConformanceIT {
    /** Every auth scenario the reference client passes (all 22 of 0.1.16's), and initialize. */
    static final List<String> GOAL = List.of("initialize", "auth/metadata-default", "auth/metadata-var1",
            "auth/metadata-var2", "auth/metadata-var3", "auth/basic-cimd", "auth/scope-from-www-authenticate",
            "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined", "auth/scope-step-up",
            "auth/scope-retry-limit", "auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post",
            "auth/token-endpoint-auth-none", "auth/pre-registration", "auth/2025-03-26-oauth-metadata-backcompat",
            "auth/2025-03-26-oauth-endpoint-fallback", "auth/resource-mismatch", "auth/offline-access-scope",
            "auth/offline-access-not-supported", "auth/client-credentials-jwt", "auth/client-credentials-basic",
            "auth/cross-app-access-complete-flow");
    static final String OPERATOR_TOKEN = "conformance-operator-" + System.nanoTime();

    static Path work;
    static GatewayProcess gateway;
    static int port;

    @BeforeAll
    static void start() throws IOException {
        NodeFixtures.requireInstalled();
        work = Files.createTempDirectory("cloakgate-oauth-conformance-");
        Path tenants = Files.createDirectories(work.resolve("tenants"));
        // the gateway starts only with a tenant; the scenarios' tenants are added while it runs
        Files.writeString(tenants.resolve("placeholder.json"),
                "{\"upstreams\":{\"up\":{\"url\":\"http://127.0.0.1:9/mcp\"}},\"auth\":{\"mode\":\"none\"}}");
        port = NodeFixtures.freePort();
        gateway = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + tenants,
                "-Dcloakgate.data-dir=" + Files.createDirectories(work.resolve("data")),
                "-Dcloakgate.public-url=http://127.0.0.1:" + port, "-Dcloakgate.reload.debounce=100ms"), port);
        assertTrue(gateway.awaitReady(Duration.ofSeconds(90)), () -> "gateway not ready:\n" + gateway.log());
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void everyGoalScenarioPassesWithTheGatewayAsClient() throws Exception {
        Map<String, String> failed = new LinkedHashMap<>();
        for (String scenario : GOAL) {
            String problem = run(scenario);
            if (problem != null) {
                failed.put(scenario, problem);
            }
        }
        assertEquals(Map.of(), failed, () -> "scenarios with a FAILURE check (or none at all); gateway log:\n"
                + tail(gateway.log()));
        // each token obtained is on the ledger, and no token the scenarios' servers issued ("test-token-...") is in
        // the ledger, anywhere else under the data dir (the stored connections are encrypted) or in the log
        String everything = dataBytes() + "\n" + gateway.log();
        assertTrue(everything.contains("upstream_token_obtained"), "token acquisitions are ledger entries");
        assertTrue(!everything.contains("test-token-"), "an upstream's token reached the data dir or the log");
    }

    /** Every file under the data dir, as Latin-1 text (SQLite keeps the ledger's entries as their UTF-8 bytes). */
    private static String dataBytes() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(work.resolve("data"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                all.append(new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1)).append('\n');
            }
        }
        return all.toString();
    }

    /** Runs one scenario; null when its checks hold no FAILURE and at least one SUCCESS, else what went wrong. */
    private static String run(String scenario) throws IOException, InterruptedException {
        Path results = Files.createDirectories(work.resolve("results"));
        Path out = work.resolve("run-" + scenario.replace('/', '_') + ".log");
        ProcessBuilder pb = new ProcessBuilder("node", NodeFixtures.RUN_CONFORMANCE.toString(), "client", "--command",
                "node " + NodeFixtures.DIR.resolve("oauth-adapter.mjs"), "--scenario", scenario, "-o",
                results.toString(), "--timeout", "90000")
                .directory(NodeFixtures.DIR.toFile()).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("CLOAKGATE_URL", "http://127.0.0.1:" + port);
        pb.environment().put("CLOAKGATE_TENANTS_DIR", work.resolve("tenants").toString());
        pb.environment().put("CLOAKGATE_OPERATOR_TOKEN", OPERATOR_TOKEN);
        pb.environment().put("CLOAKGATE_WORK_DIR", Files.createDirectories(work.resolve("secrets")).toString());
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "did not finish in 180 s";
        }
        Path checks = checksOf(results, scenario);
        if (checks == null) {
            return "no checks.json: " + tail(Files.readString(out));
        }
        List<String> failures = new ArrayList<>();
        int successes = 0;
        for (JsonNode c : new ObjectMapper().readTree(checks.toFile())) {
            String status = c.path("status").asText();
            if (status.equals("FAILURE")) {
                failures.add(c.path("id").asText() + ": " + c.path("description").asText());
            } else if (status.equals("SUCCESS")) {
                successes++;
            }
        }
        if (!failures.isEmpty() || successes == 0) {
            return failures + " " + tail(Files.readString(out));
        }
        return null;
    }

    /** The newest {@code <results>/<scenario>-<time>/checks.json}. */
    private static Path checksOf(Path results, String scenario) throws IOException {
        Path parent = results.resolve(scenario).getParent();
        String prefix = results.resolve(scenario).getFileName() + "-";
        if (!Files.isDirectory(parent)) {
            return null;
        }
        try (Stream<Path> s = Files.list(parent)) {
            return s.filter(d -> d.getFileName().toString().startsWith(prefix)
                    && d.getFileName().toString().substring(prefix.length()).matches("\\d{4}-.*"))
                    .map(d -> d.resolve("checks.json")).filter(Files::isRegularFile).sorted().reduce((a, b) -> b)
                    .orElse(null);
        }
    }

    private static String tail(String s) {
        return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
    }
}
