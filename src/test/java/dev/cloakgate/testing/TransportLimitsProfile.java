package dev.cloakgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The gateway with low transport limits, so that slow clients, oversized upstream messages
 * and clients that never read hit them within a test: short header and body deadlines, few connections per
 * address, a 1 MiB upstream message limit, one large-message worker, small write backlogs, and a long request
 * timeout so that an answer that waited for it is told apart from one that did not.
 */
public class TransportLimitsProfile implements QuarkusTestProfile {
    public static final int MAX_CONNECTIONS = 40;
    public static final int PER_ADDRESS = 12;
    public static final int MESSAGE_LIMIT = 1 << 20;
    public static final int OUTPUT_BYTES = 65536;
    public static final long REQUEST_TIMEOUT_MS = 90_000;
    public static final long QUEUED_PER_CONNECTION = 256 * 1024;
    public static final long QUEUED_PER_SESSION = 1 << 20;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> c = new HashMap<>();
        c.put("cloakgate.http.header-timeout", "3s");
        c.put("cloakgate.http.body-timeout", "3s");
        c.put("cloakgate.http.max-connections", String.valueOf(MAX_CONNECTIONS));
        c.put("cloakgate.http.max-connections-per-address", String.valueOf(PER_ADDRESS));
        c.put("cloakgate.http.max-queued-bytes", String.valueOf(QUEUED_PER_CONNECTION));
        c.put("cloakgate.http.write-stall-timeout", "10s");
        c.put("cloakgate.http.keep-alive", "1s");
        c.put("cloakgate.session.max-queued-bytes", String.valueOf(QUEUED_PER_SESSION));
        c.put("cloakgate.upstream.request-timeout", (REQUEST_TIMEOUT_MS / 1000) + "s");
        c.put("cloakgate.upstream.initialize-timeout", "30s");
        c.put("cloakgate.upstream.max-message-bytes", String.valueOf(MESSAGE_LIMIT));
        c.put("cloakgate.upstream.large-message-bytes", "65536");
        c.put("cloakgate.upstream.large-message-workers", "1");
        return c;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(Fixtures.class));
    }

    /** The heavy-server fixtures and the tenants in front of them. */
    public static class Fixtures implements QuarkusTestResourceLifecycleManager {
        public static final Path HEAVY = NodeFixtures.DIR.resolve("heavy-server.mjs");
        private final List<NodeFixtures.HttpServer> running = new ArrayList<>();

        @Override
        public Map<String, String> start() {
            NodeFixtures.requireInstalled();
            try {
                Path root = Files.createTempDirectory("cloakgate-transport-");
                Path tenants = Files.createDirectories(root.resolve("tenants"));
                NodeFixtures.HttpServer big = started(NodeFixtures.startListening(HEAVY, "--name", "big"));
                NodeFixtures.HttpServer other = started(NodeFixtures.startListening(HEAVY, "--name", "other"));
                NodeFixtures.HttpServer json = started(NodeFixtures.startListening(HEAVY, "--name", "big", "--json-response"));

                tenant(tenants, "big-stdio", Map.of("big", stdio("big")), Map.of("sanitize", false));
                tenant(tenants, "big-http", Map.of("big", http(big)), Map.of("sanitize", false));
                tenant(tenants, "big-json", Map.of("big", http(json)), Map.of("sanitize", false));
                ObjectNode policy = Json.object();
                policy.putObject("budget").put("output_bytes", OUTPUT_BYTES);
                Map<String, ObjectNode> both = new LinkedHashMap<>();
                both.put("st", stdio("st"));
                both.put("ht", http(big));
                tenant(tenants, "big-policy", both, Map.of("sanitize", false, "policy", policy));
                tenant(tenants, "bulk", Map.of("big", http(big)), Map.of("sanitize", true));
                tenant(tenants, "other", Map.of("other", http(other)), Map.of("sanitize", false));
                tenant(tenants, "flood", Map.of("fl", stdio("fl")), Map.of("sanitize", false));

                System.setProperty("test.transport.data.dir", root.resolve("data").toString());
                Map<String, String> config = new HashMap<>();
                config.put("cloakgate.tenants-dir", tenants.toString());
                config.put("cloakgate.data-dir", root.resolve("data").toString());
                return config;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private NodeFixtures.HttpServer started(NodeFixtures.HttpServer s) {
            running.add(s);
            return s;
        }

        private static ObjectNode stdio(String name) {
            return Upstreams.stdio(HEAVY.toString(), "stdio", "--name", name);
        }

        private static ObjectNode http(NodeFixtures.HttpServer s) {
            return Upstreams.http(s.url().toString());
        }

        private static void tenant(Path dir, String name, Map<String, ObjectNode> upstreams, Map<String, Object> settings)
                throws IOException {
            Upstreams.tenant(dir, name, "prefix", upstreams, settings);
        }

        @Override
        public void stop() {
            running.forEach(NodeFixtures.HttpServer::close);
        }
    }
}
