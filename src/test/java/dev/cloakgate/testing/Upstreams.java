package dev.cloakgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts the real upstream servers the gateway tests front and writes the tenant files that point at them.
 * Facts tests need (URLs, folders) are published as system properties {@code test.*}, which cross the
 * class-loader boundary between this resource and the tests.
 */
public class Upstreams implements QuarkusTestResourceLifecycleManager {
    /** Part of the metrics tenant's tool names, descriptions and results: must never reach a metric label. */
    public static final String METRICS_PLANT = "zqtool7k4m";
    /**
     * Every tenant here (unless its test gives its own auth block) lets the holder of this token export its ledger as
     * its auditor principal (the file keeps only its SHA-256).
     */
    /** The operator of every tenant without its own auth block (the admin API: status, sessions, pins). */
    public static final String OPERATOR_TOKEN = "operator-test-token-2b8e4d1f6a9c3e5b7d0f1a2c3e4b";
    public static final String AUDITOR_TOKEN = "auditor-test-token-7f3c9a1e5b2d4c6f8a0b1c2d3e4f";
    /** Issue 15: the operator of tenant {@code no-auditor}, which has no auditor principal. */
    public static final String NO_AUDITOR_OPERATOR_TOKEN = "no-auditor-operator-token-5e1a7c3f9b2d";
    private final List<AutoCloseable> running = new ArrayList<>();
    /** Customers read as text and through read_media_file (base64). */
    public static final String MEDIA_CSV = "name,email,card\nIsabel Ferreira,isabel.ferreira@example-pt.pt,4539 1488 0343 6467\n"
            + "Tomasz Nowak,tomasz.nowak@example-pl.pl,5425 2334 3010 9903\n";

    @Override
    public Map<String, String> start() {
        NodeFixtures.requireInstalled();
        try {
            Path root = Files.createTempDirectory("cloakgate-test-");
            Path tenants = Files.createDirectories(root.resolve("tenants"));
            Path fsRoot = Files.createDirectories(root.resolve("fsroot"));
            Files.writeString(fsRoot.resolve("hello.txt"), "Hello from the filesystem fixture.\n");
            Files.createDirectories(fsRoot.resolve("notes"));
            Files.writeString(fsRoot.resolve("notes/todo.md"), "# Todo\n- write the gateway\n");

            NodeFixtures.HttpServer everything = started(NodeFixtures.startEverything());
            NodeFixtures.HttpServer beta = started(NodeFixtures.startListening(NodeFixtures.PROBE, "--name", "beta"));
            NodeFixtures.HttpServer conformance = started(NodeFixtures.startListening(NodeFixtures.CONFORMANCE));
            int closedPort = NodeFixtures.freePort();

            tenant(tenants, "fs", "prefix", Map.of("fs", stdio(NodeFixtures.FILESYSTEM.toString(), fsRoot.toString())));
            tenant(tenants, "fsnone", "none", Map.of("fs", stdio(NodeFixtures.FILESYSTEM.toString(), fsRoot.toString())));
            tenant(tenants, "everything", "prefix", Map.of("ev", http(everything.url().toString())));
            // the same upstreams with cloaking on (every other tenant here is transparent, sanitize off)
            tenant(tenants, "fs-cloaked", "prefix", Map.of("fs", stdio(NodeFixtures.FILESYSTEM.toString(), fsRoot.toString())),
                    Map.of("sanitize", true));
            tenant(tenants, "everything-cloaked", "prefix", Map.of("ev", http(everything.url().toString())),
                    Map.of("sanitize", true));

            Path plants = root.resolve("plants.json");
            Files.writeString(plants, Json.write(Plants.json()));
            Path leakFs = Files.createDirectories(root.resolve("leakfs"));
            Plants.fillFolder(leakFs);
            NodeFixtures.HttpServer leak = started(NodeFixtures.startListening(NodeFixtures.LEAK_PROBE, "--plants",
                    plants.toString()));
            tenant(tenants, "leak", "prefix", ordered("probe", http(leak.url().toString()),
                    "fs", stdio(NodeFixtures.FILESYSTEM.toString(), leakFs.toString())), Map.of("sanitize", true));
            tenant(tenants, "leakstdio", "prefix", Map.of("probe", stdio(NodeFixtures.LEAK_PROBE.toString(), "stdio",
                    "--plants", plants.toString())), Map.of("sanitize", true));

            Path rt = Files.createDirectories(root.resolve("roundtrip"));
            Files.writeString(rt.resolve("contact.txt"), "Customer: Marie Dubois\nEmail: marie.dubois@example-eu.fr\n"
                    + "Phone: +33 6 12 34 56 78\n");
            for (String scope : new String[] { "session", "upstream" }) {
                Path memFile = root.resolve("memory-" + scope + ".jsonl");
                ObjectNode mem = stdio(NodeFixtures.MEMORY.toString());
                mem.putObject("env").put("MEMORY_FILE_PATH", memFile.toString());
                tenant(tenants, "rt-" + scope, "prefix", ordered("fs", stdio(NodeFixtures.FILESYSTEM.toString(), rt.toString()),
                        "mem", mem), Map.of("sanitize", true, "token_scope", scope));
                System.setProperty("test.memory." + scope, memFile.toString());
            }
            Path record = root.resolve("hostile-record.jsonl");
            tenant(tenants, "hostile", "prefix", ordered("fs", stdio(NodeFixtures.FILESYSTEM.toString(), rt.toString()),
                    "bad", stdio(NodeFixtures.HOSTILE.toString(), "stdio", "--record", record.toString())),
                    Map.of("sanitize", true));
            System.setProperty("test.roundtrip.dir", rt.toString());
            System.setProperty("test.hostile.record", record.toString());
            System.setProperty("test.leakfs", leakFs.toString());
            System.setProperty("test.gateway.log", root.resolve("gateway.log").toString());
            tenant(tenants, "duo", "prefix", ordered("alpha", stdio(NodeFixtures.PROBE.toString(), "stdio", "--name", "alpha"),
                    "beta", http(beta.url().toString())));
            tenant(tenants, "conformance", "none", Map.of("conf", http(conformance.url().toString())));
            tenant(tenants, "flaky", "prefix", ordered("alpha", stdio(NodeFixtures.PROBE.toString(), "stdio", "--name", "alpha"),
                    "down", http("http://127.0.0.1:" + closedPort + "/mcp")));
            tenant(tenants, "mismatch", "prefix", ordered("alpha", stdio(NodeFixtures.PROBE.toString(), "stdio", "--name", "alpha"),
                    "old", stdio(NodeFixtures.FIXED_VERSION.toString(), "2025-03-26")));
            Path guard = Files.createDirectories(root.resolve("guarded"));
            Files.writeString(guard.resolve("inside.txt"), "inside the sandbox\n");
            Files.writeString(root.resolve("outside.txt"), "outside the sandbox\n");
            for (String name : new String[] { "guarded", "guarded-allow" }) {
                ObjectNode policy = Json.object();
                policy.putArray("path_roots").add(guard.toString());
                policy.putArray("egress_allowlist").add("example.com");
                policy.putObject("budget").put("tool_calls", 3).put("breaker_errors", 2).put("breaker_seconds", 60);
                if (name.equals("guarded-allow")) {
                    policy.putArray("tool_allowlist").add("pol__echo");
                }
                tenant(tenants, name, "prefix", ordered("fs", stdio(NodeFixtures.FILESYSTEM.toString(), guard.toString()),
                        "pol", stdio(NodeFixtures.POLICY.toString(), "stdio")), Map.of("sanitize", false, "policy", policy));
            }
            System.setProperty("test.guarded.dir", guard.toString());
            System.setProperty("test.data.dir", root.resolve("data").toString());
            System.setProperty("test.tenants.dir", tenants.toString());
            tenant(tenants, "dead", "prefix", Map.of("gone", http("http://127.0.0.1:" + closedPort + "/mcp")));

            // base64 text (media) and token shapes on every surface (harvest)
            Path media = Files.createDirectories(root.resolve("media"));
            Files.writeString(media.resolve("customers.csv"), MEDIA_CSV);
            MediaFiles.writePng(media.resolve("photo.png"));
            MediaFiles.writeWav(media.resolve("tone.wav"));
            tenant(tenants, "media", "prefix", Map.of("fs", stdio(NodeFixtures.FILESYSTEM.toString(), media.toString())),
                    Map.of("sanitize", true));
            System.setProperty("test.media.dir", media.toString());
            Path harvestDir = Files.createDirectories(root.resolve("harvest"));
            Files.writeString(harvestDir.resolve("contact.txt"), "Customer: Ines Carvalho\nEmail: ines.carvalho@example-pt.pt\n");
            Path harvestRecord = Files.writeString(root.resolve("harvest-record.jsonl"), "");
            tenant(tenants, "harvest", "prefix", ordered("fs", stdio(NodeFixtures.FILESYSTEM.toString(), harvestDir.toString()),
                    "bad", stdio(NodeFixtures.DIR.resolve("harvest-server.mjs").toString(), "stdio", "--record",
                            harvestRecord.toString())), Map.of("sanitize", true));
            System.setProperty("test.harvest.dir", harvestDir.toString());
            System.setProperty("test.harvest.record", harvestRecord.toString());
            // a policy tenant (no sanitize) whose upstream puts planted values in keys
            ObjectNode piiPolicy = Json.object();
            piiPolicy.putArray("egress_allowlist").add("example.com");
            tenant(tenants, "pii-keys", "prefix", Map.of("pk", stdio(NodeFixtures.DIR.resolve("pii-keys-server.mjs").toString(),
                    "stdio", "--plants", plants.toString())), Map.of("sanitize", false, "policy", piiPolicy));
            // the same upstream without a policy, cloaking: tool names reach tool_call and raw_pii entries unjudged
            tenant(tenants, "pii-names", "prefix", Map.of("pk", stdio(NodeFixtures.DIR.resolve("pii-keys-server.mjs").toString(),
                    "stdio", "--plants", plants.toString())), Map.of("sanitize", true));

            System.setProperty("test.fs.root", fsRoot.toString());
            System.setProperty("test.everything.url", everything.url().toString());
            System.setProperty("test.beta.url", beta.url().toString());
            System.setProperty("test.conformance.url", conformance.url().toString());

            // path sandbox escapes with relative paths (acceptance/SandboxEscapeTest)
            // the real filesystem server allowed a parent P (and started in P), the sandbox root P/root below it,
            // and a secret beside the root at P/outside/secret.txt; no base declared
            Path sbx = sandboxLayout(root.resolve("sandbox-rel"), "inside the sandbox root\n");
            sandboxTenant(tenants, "sandbox-rel", sbx, sbx.toString(), sbx.resolve("root"), null);
            // the same with the base declared: server-filesystem resolves relative paths against P
            Path based = sandboxLayout(root.resolve("sandbox-base"), "inside the based root\n");
            sandboxTenant(tenants, "sandbox-base", based, based.toString(), based.resolve("root"), based);
            // as the demo tenant: the server's directory given relative to its cwd, root and base both that directory
            Path demoLike = sandboxLayout(root.resolve("sandbox-demo"), "inside the demo-like root\n");
            sandboxTenant(tenants, "sandbox-demo", demoLike, "root", demoLike.resolve("root"), demoLike.resolve("root"));
            System.setProperty("test.sandbox.rel", sbx.toString());
            System.setProperty("test.sandbox.base", based.toString());
            System.setProperty("test.sandbox.demo", demoLike.toString());

            // ---- issue 10: live tenant configuration (acceptance/HotReloadTest rewrites this file) ----
            tenant(tenants, "reload", "prefix", Map.of("alpha", stdio(NodeFixtures.PROBE.toString(), "stdio", "--name", "alpha")));
            System.setProperty("test.reload.file", tenants.resolve("reload.json").toString());
            // ---- end issue 10 ----

            // --- issue 10, tool pins: a server whose declarations drift between sessions (PinReviewTest) ---
            Path driftVariant = root.resolve("drift-variant");
            tenant(tenants, "drift", "prefix", Map.of("dr", stdio(NodeFixtures.DIR.resolve("drift-server.mjs").toString(),
                    "stdio", "--variant-file", driftVariant.toString())), Map.of("sanitize", false, "policy", Json.object()));
            System.setProperty("test.drift.variant", driftVariant.toString());
            // --- end tool pins ---

            // --- issue 10, metrics: an upstream whose tool names, results and errors carry a plant (MetricsTest) ---
            tenant(tenants, "metrics", "prefix", Map.of("planted", stdio(NodeFixtures.DIR.resolve("metrics-plant-server.mjs")
                    .toString(), "stdio", "--plant", METRICS_PLANT)), Map.of("sanitize", true, "policy", Json.object()));
            // --- end metrics ---

            // --- issue 10, admin API: a drifting server whose quarantines an operator reviews over HTTP (AdminPinsTest) ---
            Path adminVariant = root.resolve("drift-admin-variant");
            tenant(tenants, "drift-admin", "prefix", Map.of("dr", stdio(NodeFixtures.DIR.resolve("drift-server.mjs")
                    .toString(), "stdio", "--variant-file", adminVariant.toString())), Map.of("sanitize", false, "policy",
                    Json.object()));
            System.setProperty("test.drift-admin.variant", adminVariant.toString());
            // --- end admin API ---

            // ---- issue 10, legacy HTTP+SSE upstreams (acceptance/LegacySseTest) ----
            int legacyPort = NodeFixtures.freePort();
            NodeFixtures.HttpServer legacyEverything = started(NodeFixtures.startEverythingSse(legacyPort));
            ObjectNode legacyEv = http("http://127.0.0.1:" + legacyPort + "/sse");
            legacyEv.put("transport", "sse");
            tenant(tenants, "legacy", "prefix", Map.of("ev", legacyEv));
            System.setProperty("test.legacy.port", String.valueOf(legacyPort));
            System.setProperty("test.legacy.pid", String.valueOf(legacyEverything.process().pid()));
            for (String mode : new String[] { "legacy-probe", "legacy-hostile" }) {
                Path rec = Files.writeString(root.resolve(mode + "-record.jsonl"), "");
                NodeFixtures.HttpServer s = started(mode.equals("legacy-hostile")
                        ? NodeFixtures.startListening(NodeFixtures.LEGACY_SSE, "--record", rec.toString(), "--hostile")
                        : NodeFixtures.startListening(NodeFixtures.LEGACY_SSE, "--record", rec.toString()));
                ObjectNode u = http("http://127.0.0.1:" + s.port() + "/sse");
                u.put("transport", "sse");
                u.putObject("headers").put("X-Tenant-Key", "legacy-key-" + mode);
                tenant(tenants, mode, "prefix", Map.of("lg", u));
                System.setProperty("test." + mode + ".record", rec.toString());
            }
            // ---- end of issue 10, legacy HTTP+SSE upstreams ----

            // ---- issue 10, an upstream that cannot start (acceptance/UpstreamDiagnosticsTest) ----
            ObjectNode egressOnly = Json.object();
            egressOnly.putArray("egress_allowlist").add("example.com");
            for (String name : new String[] { "broken", "broken-policy" }) {
                tenant(tenants, name, "prefix", ordered("alpha", stdio(NodeFixtures.PROBE.toString(), "stdio", "--name", "alpha"),
                        "gone", stdio(NodeFixtures.DIR.resolve("fails-to-start.mjs").toString())),
                        name.equals("broken") ? Map.of("sanitize", false) : Map.of("sanitize", true, "policy", egressOnly));
            }
            // ---- end of issue 10, an upstream that cannot start ----

            // ---- issue 10, process economy and fairness (acceptance/TenantFairnessTest, SharedStdioTest) ----
            Path stateless = NodeFixtures.DIR.resolve("stateless-server.mjs");
            tenant(tenants, "fair-a", "prefix", Map.of("st", stdio(stateless.toString(), "stdio")),
                    Map.of("sanitize", false, "limits", Map.of("max_sessions", 2)));
            tenant(tenants, "fair-b", "prefix", Map.of("st", stdio(stateless.toString(), "stdio")),
                    Map.of("sanitize", false, "limits", Map.of("max_sessions", 2)));
            tenant(tenants, "fair-kids", "prefix", Map.of("st", stdio(stateless.toString(), "stdio")),
                    Map.of("sanitize", false, "limits", Map.of("max_stdio_children", 1)));
            for (String mode : new String[] { "shared", "unshared" }) {
                Path rec = Files.writeString(root.resolve(mode + "-record.jsonl"), "");
                ObjectNode st = stdio(stateless.toString(), "stdio", "--record", rec.toString());
                st.put("shared", mode.equals("shared"));
                tenant(tenants, mode, "prefix", Map.of("st", st),
                        Map.of("sanitize", true, "limits", Map.of("max_stdio_children", mode.equals("shared") ? 1 : 4)));
                System.setProperty("test." + mode + ".record", rec.toString());
            }
            // ---- end of issue 10, process economy and fairness ----

            // ---- issue 10, identity and roles: tenants with credentials (acceptance/AuthIsolationTest) ----
            running.add(AuthTenants.write(tenants, leak.url(), beta.url()));
            // ---- end of issue 10, identity and roles ----

            // ---- issue 13, injection grammar: records third parties wrote (acceptance/RecordInjectionTest) ----
            tenant(tenants, "records", "prefix", Map.of("rec", stdio(NodeFixtures.DIR.resolve("records-server.mjs")
                    .toString(), "stdio")), Map.of("sanitize", false, "policy", Json.object()));
            // ---- end of issue 13, injection grammar ----

            // ---- issue 14, leak surfaces: a careless upstream's errors and results (acceptance/LeakSurfacesTest) ----
            tenant(tenants, "sloppy", "prefix", Map.of("sl", stdio(NodeFixtures.DIR.resolve("sloppy-server.mjs")
                    .toString())), Map.of("sanitize", true));
            // ---- end of issue 14, leak surfaces ----

            // ---- issue 15, ledger-checks: a tenant with an operator and no auditor (acceptance/AdminCredentialFirstTest) ----
            ObjectNode noAuditor = Json.object();
            noAuditor.put("mode", "none");
            ObjectNode onlyOperator = noAuditor.putObject("principals").putObject("operator");
            onlyOperator.putArray("roles").add("operator");
            onlyOperator.putArray("tokens_sha256").add(sha256(NO_AUDITOR_OPERATOR_TOKEN));
            tenant(tenants, "no-auditor", "prefix", Map.of("fs", stdio(NodeFixtures.FILESYSTEM.toString(), fsRoot.toString())),
                    Map.of("auth", noAuditor));
            // ---- end of issue 15, ledger-checks ----

            Map<String, String> config = new HashMap<>();
            config.put("cloakgate.tenants-dir", tenants.toString());
            config.put("cloakgate.data-dir", root.resolve("data").toString());
            config.put("cloakgate.upstream.request-timeout", "6s");
            config.put("cloakgate.upstream.initialize-timeout", "20s");
            config.put("cloakgate.upstream.backoff-initial", "200ms");
            config.put("cloakgate.http.keep-alive", "1s");
            config.put("cloakgate.http.max-body-bytes", "65536");
            config.put("cloakgate.http.max-depth", "32");
            config.put("cloakgate.reload.debounce", "100ms"); // issue 10: reloads seen quickly in tests
            config.put("cloakgate.reload.rescan-interval", "2s");
            // the whole gateway log, at debug, to a file the leak test searches for planted values
            config.put("quarkus.log.level", "DEBUG");
            config.put("quarkus.log.console.level", "INFO");
            config.put("quarkus.log.file.enabled", "true");
            config.put("quarkus.log.file.level", "DEBUG");
            config.put("quarkus.log.file.path", root.resolve("gateway.log").toString());
            // never rotated: Quarkus rotates at 10 MB by default, and a search of gateway.log alone would then miss
            // (or fail to find) what a test class wrote before the rotation
            config.put("quarkus.log.file.rotation.max-file-size", "8G");

            // ---- issue 16, the gateway as an OAuth protected resource (acceptance/OAuthResourceTest, OAuthLoginTest) ----
            running.addAll(OAuthTenants.write(root, tenants, config));
            // ---- end of issue 16, OAuth protected resource ----
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code p/root/inside.txt} and a secret beside the root, {@code p/outside/secret.txt}; returns p. */
    private static Path sandboxLayout(Path p, String inside) throws IOException {
        Files.createDirectories(p.resolve("root/sub"));
        Files.writeString(p.resolve("root/inside.txt"), inside);
        Files.createDirectories(p.resolve("outside"));
        Files.writeString(p.resolve("outside/secret.txt"), "sandbox-secret-4f1c9d\n");
        return p;
    }

    /** The real filesystem server on {@code dir}, started in {@code cwd}, sandboxed to {@code root}. */
    private static void sandboxTenant(Path tenants, String name, Path cwd, String dir, Path root, Path base)
            throws IOException {
        ObjectNode fs = stdio(NodeFixtures.FILESYSTEM.toString(), dir);
        fs.put("cwd", cwd.toString());
        ObjectNode policy = Json.object();
        policy.putArray("path_roots").add(root.toString());
        if (base != null) {
            policy.putObject("path_base").put("fs", base.toString());
        }
        tenant(tenants, name, "prefix", Map.of("fs", fs), Map.of("sanitize", false, "policy", policy));
    }

    private NodeFixtures.HttpServer started(NodeFixtures.HttpServer s) {
        running.add(s);
        return s;
    }

    public static ObjectNode stdio(String script, String... args) {
        ObjectNode u = Json.object();
        u.put("command", "node");
        ArrayNode a = u.putArray("args");
        a.add(script);
        for (String arg : args) {
            a.add(arg);
        }
        return u;
    }

    public static ObjectNode http(String url) {
        ObjectNode u = Json.object();
        u.put("url", url);
        return u;
    }

    private static Map<String, ObjectNode> ordered(String k1, ObjectNode v1, String k2, ObjectNode v2) {
        Map<String, ObjectNode> m = new java.util.LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    private static void tenant(Path dir, String name, String namespace, Map<String, ObjectNode> upstreams)
            throws IOException {
        tenant(dir, name, namespace, upstreams, Map.of("sanitize", false));
    }

    public static void tenant(Path dir, String name, String namespace, Map<String, ObjectNode> upstreams,
            Map<String, Object> settings) throws IOException {
        ObjectNode t = Json.object();
        ObjectNode ups = t.putObject("upstreams");
        upstreams.forEach(ups::set);
        t.put("namespace", namespace);
        settings.forEach((k, v) -> t.set(k, Json.MAPPER.valueToTree(v)));
        // issue 10, identity: a tenant file must say who may call it. Unless the test gives its own auth block,
        // agents need no credential here, and the holder of AUDITOR_TOKEN is the auditor who exports the ledger
        if (!settings.containsKey("auth")) {
            t.set("auth", openAuth());
        }
        Files.writeString(dir.resolve(name + ".json"), Json.write(t));
    }

    /**
     * {@code "auth": {"mode": "none"}} with one auditor principal holding {@link #AUDITOR_TOKEN} and one operator
     * holding {@link #OPERATOR_TOKEN}.
     */
    public static ObjectNode openAuth() {
        ObjectNode auth = Json.object();
        auth.put("mode", "none");
        ObjectNode auditor = auth.putObject("principals").putObject("auditor");
        auditor.putArray("roles").add("auditor");
        auditor.putArray("tokens_sha256").add(sha256(AUDITOR_TOKEN));
        ObjectNode operator = ((ObjectNode) auth.get("principals")).putObject("operator");
        operator.putArray("roles").add("operator");
        operator.putArray("tokens_sha256").add(sha256(OPERATOR_TOKEN));
        return auth;
    }

    public static String sha256File(Path file) throws IOException {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        // issue 10, legacy upstreams: LegacySseTest restarts server-everything (sse) and leaves its pid here
        String legacyPid = System.getProperty("test.legacy.pid");
        if (legacyPid != null) {
            ProcessHandle.of(Long.parseLong(legacyPid)).ifPresent(p -> {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            });
        }
        for (AutoCloseable c : running) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }
}
