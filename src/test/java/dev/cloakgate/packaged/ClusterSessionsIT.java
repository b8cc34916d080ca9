package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.acceptance.ServerToClientTest;
import dev.cloakgate.acceptance.TransparencyTest;
import dev.cloakgate.cluster.ClusterKey;
import dev.cloakgate.cluster.PeerSignature;
import dev.cloakgate.cluster.SessionIdCodec;
import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.McpStdioClient;
import dev.cloakgate.testing.McpTestClient;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.AdminHttp;
import dev.cloakgate.testing.RoundRobinFront;
import dev.cloakgate.testing.TestAuthorizationServer;
import dev.cloakgate.testing.TestJwts;
import dev.cloakgate.testing.TestPostgres;
import dev.cloakgate.testing.Transcript;
import dev.cloakgate.testing.Upstreams;

/**
 * Issue 17: three packaged gateway processes in cluster mode (separate data dirs, the same tenant files, the same
 * shared key, each naming the three as peers) behind a round-robin front, so consecutive requests of one session
 * land on different replicas. Through the front, sessions behave exactly as through one gateway; a replica killed
 * with SIGKILL takes only its own sessions with it (404, so clients start anew); ids that were not issued by the
 * cluster for that tenant are unknown; a peer header that does not verify is refused; a forward is no way around the
 * agent's credential.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterSessionsIT {
    private static final int REPLICAS = 3;
    private static final String AGENT_TOKEN = "cluster-agent-token-8d2f6b1e4a7c9e3f5b0d";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String OPS_TOKEN = "cluster-ops-token-3b9e1c7a5d2f8e4b6a0c";
    private static TestAuthorizationServer authServer;

    private static final List<AutoCloseable> RUNNING = new ArrayList<>();
    private static final List<GatewayProcess> GATEWAYS = new ArrayList<>();
    private static RoundRobinFront front;
    private static Path root;
    private static Path fsRoot;
    private static URI everythingUrl;
    private static byte[] clusterKey;

    @BeforeAll
    static void cluster() throws Exception {
        NodeFixtures.requireInstalled();
        root = Files.createTempDirectory("cloakgate-cluster-");
        Path tenants = Files.createDirectories(root.resolve("tenants"));
        fsRoot = Files.createDirectories(root.resolve("fsroot"));
        Files.writeString(fsRoot.resolve("hello.txt"), "Hello from the filesystem fixture.\n");
        Files.createDirectories(fsRoot.resolve("notes"));
        Files.writeString(fsRoot.resolve("notes/todo.md"), "# Todo\n- write the gateway\n");

        NodeFixtures.HttpServer everything = NodeFixtures.startEverything();
        RUNNING.add(everything);
        everythingUrl = everything.url();
        NodeFixtures.HttpServer beta = NodeFixtures.startListening(NodeFixtures.PROBE, "--name", "beta");
        RUNNING.add(beta);
        Upstreams.tenant(tenants, "everything", "prefix", Map.of("ev", Upstreams.http(everything.url().toString())),
                Map.of("sanitize", false));
        Upstreams.tenant(tenants, "fs", "prefix", Map.of("fs", Upstreams.stdio(NodeFixtures.FILESYSTEM.toString(), fsRoot.toString())),
                Map.of("sanitize", false));
        Map<String, ObjectNode> duo = new LinkedHashMap<>();
        duo.put("alpha", Upstreams.stdio(NodeFixtures.PROBE.toString(), "stdio", "--name", "alpha"));
        duo.put("beta", Upstreams.http(beta.url().toString()));
        Upstreams.tenant(tenants, "duo", "prefix", duo, Map.of("sanitize", false));
        Upstreams.tenant(tenants, "guarded", "prefix", Map.of("alpha", Upstreams.stdio(NodeFixtures.PROBE.toString(), "stdio",
                "--name", "alpha")), Map.of("sanitize", false, "auth", Json.obj("{\"principals\":{\"agent\":{\"roles\":"
                        + "[\"agent\"],\"tokens_sha256\":[\"" + Upstreams.sha256(AGENT_TOKEN) + "\"]}}}")));

        // issue 17, upstream OAuth: an upstream whose metadata names the test authorization server, and a tenant an
        // operator connects it for (the redirect comes back through the front, to any replica)
        authServer = TestAuthorizationServer.start(TestJwts.generate("as-1"), root.resolve("issued.jsonl"), Set.of("mcp"));
        RUNNING.add(authServer);
        com.sun.net.httpserver.HttpServer prm = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        String prmBase = "http://127.0.0.1:" + prm.getAddress().getPort();
        prm.createContext("/", ex -> {
            boolean metadata = ex.getRequestURI().getPath().equals("/.well-known/oauth-protected-resource/mcp");
            byte[] body = (metadata ? "{\"resource\":\"" + prmBase + "/mcp\",\"authorization_servers\":[\""
                    + authServer.issuer() + "\"],\"scopes_supported\":[\"mcp\"]}" : "{}").getBytes(StandardCharsets.UTF_8);
            if (!metadata) {
                ex.getResponseHeaders().add("WWW-Authenticate", "Bearer resource_metadata=\"" + prmBase
                        + "/.well-known/oauth-protected-resource/mcp\"");
            }
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(metadata ? 200 : 401, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        prm.start();
        RUNNING.add(() -> prm.stop(0));
        ObjectNode crm = Upstreams.http(prmBase + "/mcp");
        crm.set("oauth", Json.obj("{\"grant\":\"authorization_code\"}"));
        Upstreams.tenant(tenants, "linked", "prefix", Map.of("crm", crm), Map.of("sanitize", false, "auth",
                Json.obj("{\"principals\":{\"ops\":{\"roles\":[\"operator\"],\"tokens_sha256\":[\""
                        + Upstreams.sha256(OPS_TOKEN) + "\"]},\"agent\":{\"roles\":[\"agent\"],\"tokens_sha256\":[\""
                        + Upstreams.sha256(AGENT_TOKEN) + "\"]}}}")));

        clusterKey = new byte[32];
        new SecureRandom().nextBytes(clusterKey);
        Path key = root.resolve("cluster.key");
        Files.writeString(key, Base64.getEncoder().encodeToString(clusterKey) + "\n");
        int[] ports = new int[REPLICAS];
        List<String> peers = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            ports[i] = NodeFixtures.freePort();
            peers.add("r" + i + "=http://127.0.0.1:" + ports[i]);
        }
        List<URI> backends = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            backends.add(URI.create("http://127.0.0.1:" + ports[i] + "/"));
        }
        // the Service's address is the gateway's public URL (an authorization server redirects the operator's browser there)
        front = new RoundRobinFront(backends);
        String publicUrl = front.url("/").toString().replaceAll("/$", "");
        // the replicas share their state in one PostgreSQL database and sign the one log per tenant with one key
        Path signingKey = Files.writeString(root.resolve("ledger.key"), java.util.HexFormat.of().formatHex(randomBytes(32)));
        List<String> shared = new ArrayList<>(TestPostgres.server().database("cluster_sessions").gatewayProperties());
        shared.add("-Dcloakgate.ledger.signing-key-file=" + signingKey);
        shared.add("-Dcloakgate.ledger.log-identity=cluster.sessions.example");
        for (int i = 0; i < REPLICAS; i++) {
            List<String> props = new ArrayList<>(shared);
            props.addAll(List.of("-Xmx384m", "-Dcloakgate.tenants-dir=" + tenants,
                    "-Dcloakgate.public-url=" + publicUrl,
                    "-Dcloakgate.data-dir=" + root.resolve("data-r" + i), "-Dcloakgate.cluster.replica-id=r" + i,
                    "-Dcloakgate.cluster.key-file=" + key, "-Dcloakgate.cluster.peers=" + String.join(",", peers)));
            GatewayProcess gw = GatewayProcess.start(props, ports[i]);
            GATEWAYS.add(gw);
        }
        for (GatewayProcess gw : GATEWAYS) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(180)), gw.log());
        }
    }

    @AfterAll
    static void stop() {
        if (front != null) {
            front.close();
        }
        for (GatewayProcess gw : GATEWAYS) {
            gw.close();
        }
        for (AutoCloseable c : RUNNING) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    private static URI through(String tenant) {
        return front.url("/t/" + tenant + "/mcp");
    }

    private static String owner(String tenant, String sessionId) {
        return new SessionIdCodec(ClusterKey.of(clusterKey)).owner(tenant, sessionId).orElseThrow();
    }

    /** The replicas the front sent requests to since {@code from}. */
    private static Set<Integer> landedSince(int from) {
        List<Integer> all = front.landed();
        return new HashSet<>(all.subList(from, all.size()));
    }

    /** Cluster settings that cannot work fail --check and stop the start, with a stable code and what to fix. */
    @Test
    @Order(0)
    void clusterSettingsThatCannotWorkFailTheCheckAndStopTheStart() throws Exception {
        String tenants = "-Dcloakgate.tenants-dir=" + root.resolve("tenants");
        Path shortKey = Files.writeString(root.resolve("short.key"), Base64.getEncoder().encodeToString(new byte[16]));
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("cluster_key_missing", List.of(tenants, "-Dcloakgate.cluster.replica-id=r0",
                "-Dcloakgate.cluster.peers=r0=http://127.0.0.1:1"));
        cases.put("cluster_key_invalid", List.of(tenants, "-Dcloakgate.cluster.replica-id=r0",
                "-Dcloakgate.cluster.key-file=" + shortKey, "-Dcloakgate.cluster.peers=r0=http://127.0.0.1:1"));
        cases.put("cluster_replica_id_invalid", List.of(tenants, "-Dcloakgate.cluster.replica-id=Replica_0",
                "-Dcloakgate.cluster.key-file=" + root.resolve("cluster.key")));
        cases.put("cluster_peers_missing", List.of(tenants, "-Dcloakgate.cluster.replica-id=r0",
                "-Dcloakgate.cluster.key-file=" + root.resolve("cluster.key")));
        for (Map.Entry<String, List<String>> c : cases.entrySet()) {
            GatewayProcess.Result check = GatewayProcess.run(c.getValue(), "--check");
            assertEquals(1, check.exit(), check.output());
            assertTrue(check.output().contains("error: " + c.getKey() + ": "), c.getKey() + ":\n" + check.output());
            assertFalse(check.output().contains(Base64.getEncoder().encodeToString(clusterKey)), "the key is never shown");
        }
        GatewayProcess.Result alone = GatewayProcess.run(List.of(tenants, "-Dcloakgate.cluster.replica-id=r0",
                "-Dcloakgate.cluster.key-file=" + root.resolve("cluster.key"),
                "-Dcloakgate.cluster.peer-url=http://{replica}.peers.svc:8080"), "--check");
        assertEquals(1, alone.exit(), alone.output());
        assertTrue(alone.output().contains("error: cluster_requires_postgresql: "), alone.output());
        GatewayProcess.Result noIdentity = GatewayProcess.run(List.of(tenants, "-Dcloakgate.cluster.replica-id=r0",
                "-Dcloakgate.cluster.key-file=" + root.resolve("cluster.key"), "-Dcloakgate.store=postgresql",
                "-Dquarkus.datasource.jdbc.url=jdbc:postgresql://db.invalid/app",
                "-Dcloakgate.cluster.peer-url=http://{replica}.peers.svc:8080"), "--check");
        assertEquals(1, noIdentity.exit(), noIdentity.output());
        assertTrue(noIdentity.output().contains("error: cluster_log_identity_required: "), noIdentity.output());
        GatewayProcess.Result ok = GatewayProcess.run(List.of(tenants, "-Dcloakgate.cluster.replica-id=r0",
                "-Dcloakgate.cluster.key-file=" + root.resolve("cluster.key"), "-Dcloakgate.store=postgresql",
                "-Dquarkus.datasource.jdbc.url=jdbc:postgresql://db.invalid/app",
                "-Dcloakgate.ledger.log-identity=cluster.sessions.example", "-Dcloakgate.ledger.dev-key=true",
                "-Dcloakgate.cluster.peer-url=http://{replica}.peers.svc:8080"), "--check");
        assertEquals(0, ok.exit(), ok.output());
        assertTrue(ok.output().contains("ok: cluster replica r0"), ok.output());
        try (GatewayProcess gw = GatewayProcess.start(cases.get("cluster_key_missing"))) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(120)));
            assertTrue(gw.log().contains("cluster_key_missing"), gw.log());
        }
    }

    @Test
    @Order(1)
    void transparencyThroughTheRoundRobinFrontAsThroughOneGateway() {
        Transcript direct;
        try (McpTestClient c = new McpHttpClient(everythingUrl)) {
            direct = TransparencyTest.everythingScript(c, "");
        }
        int from = front.landed().size();
        Transcript through;
        try (McpHttpClient c = new McpHttpClient(through("everything"))) {
            through = TransparencyTest.everythingScript(c, "ev__");
            assertTrue(owner("everything", c.sessionId()).matches("r[0-2]"));
        }
        TransparencyTest.assertSame(direct, through, "ev__");
        assertEquals(Set.of(0, 1, 2), landedSince(from), "the session's requests landed on every replica");

        Transcript directFs;
        try (McpTestClient c = new McpStdioClient(List.of("node", NodeFixtures.FILESYSTEM.toString(), fsRoot.toString()),
                null)) {
            directFs = TransparencyTest.filesystemScript(c, fsRoot, "");
        }
        Transcript throughFs;
        try (McpHttpClient c = new McpHttpClient(through("fs"))) {
            throughFs = TransparencyTest.filesystemScript(c, fsRoot, "fs__");
        }
        TransparencyTest.assertSame(directFs, throughFs, "fs__");
        // the operators see it: forwards are counted where they were made
        long forwarders = GATEWAYS.stream().filter(gw -> metrics(gw).lines().anyMatch(l -> l.startsWith(
                "cloakgate_cluster_routed_total{") && l.contains("route=\"forwarded\"") && l.contains("tenant=\"fs\""))).count();
        assertTrue(forwarders >= 2, "at least two replicas forwarded requests of the fs session");
    }

    private static String metrics(GatewayProcess gw) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(gw.managementUrl("/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @Order(2)
    void serverToClientFlowsThroughTheRoundRobinFront() {
        int from = front.landed().size();
        ServerToClientTest.sampling(through("everything"));
        ServerToClientTest.progress(through("everything"));
        ServerToClientTest.lastEventIdReplay(through("duo"));
        assertEquals(Set.of(0, 1, 2), landedSince(from));
    }

    @Test
    @Order(3)
    void anIdTheClusterDidNotIssueForThatTenantIsAnUnknownSession() {
        try (McpHttpClient c = new McpHttpClient(through("everything")); McpHttpClient d = new McpHttpClient(through("duo"))) {
            assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
            assertTrue(d.initialize("2025-11-25", Json.object()).has("result"));
            String id = c.sessionId();
            assertTrue(id.chars().allMatch(ch -> ch >= 0x21 && ch <= 0x7e), id);
            char[] chars = id.toCharArray();
            chars[id.length() / 2] = chars[id.length() / 2] == 'A' ? 'B' : 'A';
            List<String> bad = List.of(new String(chars), id.substring(0, id.length() - 4), id + "AAAA",
                    "0123456789abcdef0123456789abcdef", d.sessionId() /* another tenant's */,
                    new SessionIdCodec(ClusterKey.of(new byte[32])).issue("everything", "r0") /* another key's */);
            for (String sid : bad) {
                for (int i = 0; i < REPLICAS; i++) { // whichever replica the front picks
                    McpHttpClient.Raw r = raw(through("everything"), sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                            Map.of());
                    assertEquals(404, r.status(), sid + ": " + r.body());
                    assertEquals("unknown_session", r.json().path("error").path("data").path("reason").asText(), r.body());
                }
            }
            // an initialize that carries an id is refused as one gateway refuses it, whatever the id
            for (String sid : List.of(bad.get(0), id)) {
                McpHttpClient.Raw r = raw(through("everything"), sid, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\","
                        + "\"version\":\"1\"}}}", Map.of());
                assertEquals(400, r.status(), r.body());
                assertEquals("session_on_initialize", r.json().path("error").path("data").path("reason").asText());
            }
            // DELETE is forwarded to the owner too: the session is gone on every replica
            assertEquals(200, c.delete());
            for (int i = 0; i < REPLICAS; i++) {
                assertEquals(404, raw(through("everything"), id, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                        Map.of()).status());
            }
        }
    }

    @Test
    @Order(4)
    void aPeerHeaderThatDoesNotVerifyIsRefusedAndAForwardIsNoWayAroundTheCredential() throws Exception {
        try (McpHttpClient c = new McpHttpClient(through("guarded"), AGENT_TOKEN)) {
            assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
            String sid = c.sessionId();
            int own = Integer.parseInt(owner("guarded", sid).substring(1));
            GatewayProcess owner = GATEWAYS.get(own);
            GatewayProcess other = GATEWAYS.get((own + 1) % REPLICAS);
            String canary = "peer-canary-5b1e9d";
            String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"alpha__echo\","
                    + "\"arguments\":{\"text\":\"" + canary + "\"}}}";
            Map<String, String> agent = Map.of("Authorization", "Bearer " + AGENT_TOKEN);
            PeerSignature mine = new PeerSignature(ClusterKey.of(clusterKey), Clock.systemUTC(), Duration.ofSeconds(30));
            String valid = mine.sign("r" + ((own + 1) % REPLICAS), new PeerSignature.Signed("POST", "/t/guarded/mcp", sid,
                    body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            String[] parts = valid.split(";");
            List<String> forged = List.of("v1;r1;" + (System.currentTimeMillis() / 1000) + ";" + "A".repeat(43),
                    parts[0] + ";" + parts[1] + ";" + (Long.parseLong(parts[2]) - 120) + ";" + parts[3], "yes", "");
            for (GatewayProcess gw : List.of(owner, other)) {
                for (String h : forged) {
                    Map<String, String> headers = new HashMap<>(agent);
                    headers.put(PeerSignature.HEADER, h);
                    McpHttpClient.Raw r = raw(gw.url("/t/guarded/mcp"), sid, body, headers);
                    assertEquals(403, r.status(), h + ": " + r.body());
                    assertEquals("peer_auth_failed", r.json().path("error").path("data").path("reason").asText());
                }
            }
            // a forward signed with the cluster's key still needs the agent's credential at the owner...
            Map<String, String> signedOnly = Map.of(PeerSignature.HEADER, valid);
            assertEquals(401, raw(owner.url("/t/guarded/mcp"), sid, body, signedOnly).status());
            // ...and with it, it is served, once, by the owner: a replica that does not own the session never
            // forwards a forward again
            Map<String, String> both = new HashMap<>(agent);
            both.put(PeerSignature.HEADER, valid);
            McpHttpClient.Raw misrouted = raw(other.url("/t/guarded/mcp"), sid, body, both);
            assertEquals(404, misrouted.status(), misrouted.body());
            McpHttpClient.Raw served = raw(owner.url("/t/guarded/mcp"), sid, body, both);
            assertEquals(200, served.status(), served.body());
            assertTrue(served.body().contains(canary), served.body());
            // refused forwards are logged without what they carried
            assertTrue(owner.log().contains("claiming to be a replica's forward"), owner.log());
            for (GatewayProcess gw : GATEWAYS) {
                assertFalse(gw.log().contains(canary), "no payload in the log");
            }
            // through the front without the credential: refused wherever it lands, forwarded or not
            McpHttpClient.Raw anon = raw(through("guarded"), sid, body, Map.of());
            assertEquals(401, anon.status());
        }
    }

    @Test
    @Order(10)
    void aKilledReplicasSessionsAre404AndTheOthersCarryOn() throws Exception {
        Map<String, McpHttpClient> byOwner = new HashMap<>();
        List<McpHttpClient> extra = new ArrayList<>();
        try {
            for (int i = 0; i < 30 && byOwner.size() < REPLICAS; i++) {
                McpHttpClient c = new McpHttpClient(through("duo"));
                assertTrue(c.initialize("2025-11-25", Json.object()).has("result"));
                if (byOwner.putIfAbsent(owner("duo", c.sessionId()), c) != null) {
                    extra.add(c);
                }
            }
            assertEquals(Set.of("r0", "r1", "r2"), byOwner.keySet());
            McpHttpClient victim = byOwner.get("r2");
            McpHttpClient.GetStream stream = victim.openGet(null);
            assertEquals(200, stream.status());
            for (McpHttpClient c : byOwner.values()) {
                assertTrue(echo(c, "before").has("result"));
            }
            GatewayProcess r2 = GATEWAYS.get(2);
            List<ProcessHandle> children = r2.process().descendants().toList();
            r2.process().destroyForcibly(); // SIGKILL
            r2.process().waitFor();
            children.forEach(ProcessHandle::destroyForcibly);

            for (int i = 0; i < REPLICAS; i++) {
                McpHttpClient.Raw r = raw(through("duo"), victim.sessionId(),
                        "{\"jsonrpc\":\"2.0\",\"id\":" + (100 + i) + ",\"method\":\"tools/list\"}", Map.of());
                assertEquals(404, r.status(), r.body());
                assertEquals("unknown_session", r.json().path("error").path("data").path("reason").asText());
            }
            try (McpHttpClient.GetStream again = victim.openGet(null)) {
                assertEquals(404, again.status(), "a stream of the dead replica's session: start anew");
            }
            for (String alive : List.of("r0", "r1")) {
                for (int i = 0; i < REPLICAS; i++) {
                    ObjectNode r = echo(byOwner.get(alive), "after-" + i);
                    assertTrue(r.has("result"), alive + ": " + r);
                }
            }
            // and a new session starts on a replica that is there
            try (McpHttpClient fresh = new McpHttpClient(through("duo"))) {
                assertTrue(fresh.initialize("2025-11-25", Json.object()).has("result"));
                assertNotEquals("r2", owner("duo", fresh.sessionId()));
                assertTrue(echo(fresh, "fresh").has("result"));
            }
            stream.close();
        } finally {
            byOwner.values().forEach(McpHttpClient::close);
            extra.forEach(McpHttpClient::close);
        }
    }

    /**
     * After the SIGKILL test (r2 is gone): r1 drains on SIGTERM while a call of its own runs. An initialize that
     * still reaches it is refused as drain refuses it (503 shutting_down, Retry-After), so the client goes to another
     * replica; a request for r0's session that reaches it is still forwarded; its own call is answered.
     */
    @Test
    @Order(11)
    void aDrainingReplicaTakesNoNewSessionButStillServesAndForwards() throws Exception {
        GatewayProcess r0 = GATEWAYS.get(0);
        GatewayProcess r1 = GATEWAYS.get(1);
        try (McpHttpClient onR0 = new McpHttpClient(r0.url("/t/duo/mcp"));
                McpHttpClient onR1 = new McpHttpClient(r1.url("/t/duo/mcp"))) {
            assertTrue(onR0.initialize("2025-11-25", Json.object()).has("result"));
            assertTrue(onR1.initialize("2025-11-25", Json.object()).has("result"));
            assertEquals("r0", owner("duo", onR0.sessionId()));
            assertEquals("r1", owner("duo", onR1.sessionId()));
            ObjectNode slow = Json.object();
            slow.put("name", "alpha__slow");
            slow.putObject("arguments").put("ms", 12000); // the drain (20 s) lasts while it runs
            slow.putObject("_meta").put("progressToken", "drain-1");
            var running = onR1.requestAsync("tools/call", slow);
            onR1.awaitNotification(n -> n.path("method").asText().equals("notifications/progress"), WAIT);

            r1.process().destroy(); // SIGTERM
            long until = System.nanoTime() + WAIT.toNanos();
            while (ready(r1) == 200 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            McpHttpClient.Raw refused;
            try (McpHttpClient late = new McpHttpClient(r1.url("/t/duo/mcp"))) {
                refused = late.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"late\",\"version\":\"1\"}}}");
            }
            assertEquals(503, refused.status(), refused.body());
            assertEquals("shutting_down", refused.json().path("error").path("data").path("reason").asText());
            // r0's session, reached through the draining r1: forwarded and answered
            McpHttpClient.Raw viaR1 = raw(r1.url("/t/duo/mcp"), onR0.sessionId(), "{\"jsonrpc\":\"2.0\",\"id\":9,"
                    + "\"method\":\"tools/call\",\"params\":{\"name\":\"alpha__echo\",\"arguments\":{\"text\":\"drain\"}}}", Map.of());
            assertEquals(200, viaR1.status(), viaR1.body());
            assertTrue(viaR1.body().contains("alpha:drain"), viaR1.body());
            ObjectNode answered = running.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(answered.has("result"), String.valueOf(answered));
            r1.awaitExit(Duration.ofSeconds(90));
        }
    }

    /**
     * Issue 17: an operator connects an OAuth upstream through one replica; the authorization server's redirect comes
     * back through the Service to another replica, which sends it to the one holding the pending connection (its PKCE
     * verifier and registered client never leave it). Replayed, the state is refused by its owner; a redirect that
     * claims to be a replica's forward without a valid signature is refused.
     */
    @Test
    @Order(5)
    void anUpstreamConnectionsRedirectReachesTheReplicaThatStartedIt() throws Exception {
        int starter = 0;
        AdminHttp admin = new AdminHttp(GATEWAYS.get(starter).url("/admin/t/"));
        AdminHttp.Answer started = admin.send("POST", "linked/upstreams/crm/oauth/connect", OPS_TOKEN);
        assertEquals(200, started.status(), started.body());
        URI authorize = URI.create(started.json().get("authorization_url").asText());
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .followRedirects(java.net.http.HttpClient.Redirect.NEVER).build();
        java.net.http.HttpResponse<String> approved = http.send(java.net.http.HttpRequest.newBuilder(authorize).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(302, approved.statusCode(), approved.body());
        URI redirect = URI.create(approved.headers().firstValue("Location").orElseThrow());
        assertEquals(front.url("/oauth/callback").getPath(), redirect.getPath(), "back to the gateway's public URL");
        assertTrue(redirect.getRawQuery().contains("state=r0."), "the state names the replica that started it");

        // the Service hands the browser's request to another replica
        URI atOther = GATEWAYS.get(1).url("/oauth/callback?" + redirect.getRawQuery());
        java.net.http.HttpResponse<String> done = http.send(java.net.http.HttpRequest.newBuilder(atOther).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, done.statusCode(), done.body());
        assertEquals(true, Json.parse(done.body()).path("connected").asBoolean(), done.body());
        assertEquals("connected", admin.send("GET", "linked/upstreams/crm/oauth", OPS_TOKEN).json().path("state").asText());
        assertEquals(1, TestAuthorizationServer.issued(root.resolve("issued.jsonl")).size(), "one code, redeemed once");

        // single use, wherever the replay lands: the owner refuses it
        java.net.http.HttpResponse<String> replay = http.send(java.net.http.HttpRequest.newBuilder(
                GATEWAYS.get(2).url("/oauth/callback?" + redirect.getRawQuery())).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(400, replay.statusCode(), replay.body());
        assertTrue(replay.body().contains("oauth_state_invalid"), replay.body());
        // a forged forward: refused before any state is looked up
        java.net.http.HttpResponse<String> forged = http.send(java.net.http.HttpRequest.newBuilder(atOther)
                .header(PeerSignature.HEADER, "v1;r0;" + (System.currentTimeMillis() / 1000) + ";" + "A".repeat(43)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(403, forged.statusCode(), forged.body());
        assertTrue(forged.body().contains("peer_auth_failed"), forged.body());
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new SecureRandom().nextBytes(b);
        return b;
    }

    private static int ready(GatewayProcess gw) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(gw.managementUrl("/q/health/ready")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static ObjectNode echo(McpHttpClient c, String text) {
        ObjectNode p = Json.object();
        p.put("name", "alpha__echo");
        p.putObject("arguments").put("text", text);
        return c.request("tools/call", p);
    }

    private static McpHttpClient.Raw raw(URI url, String sessionId, String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(WAIT).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", sessionId)
                .header("MCP-Protocol-Version", "2025-11-25").POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        try {
            HttpResponse<String> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new McpHttpClient.Raw(r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
