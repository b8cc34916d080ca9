package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.ledger.BundleVerifier;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.ledger.TrustedKeys;
import dev.cloakgate.ledger.VerifyReport;
import dev.cloakgate.policy.TenantSecret;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The evidence ledger through the real gateway path: decisions, cloaking and restores made over MCP become
 * entries, which an auditor exports over HTTP with their own token and verifies offline with the pinned key.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class EvidenceTest {
    private static final Pattern EMAIL_TOKEN = Pattern.compile("\\[EMAIL_\\d+\\]");

    @TestHTTPResource("/t/guarded/mcp")
    URI guarded;

    @TestHTTPResource("/t/fs/mcp")
    URI fsTenant;

    @TestHTTPResource("/t/rt-session/mcp")
    URI rtSession;

    @TestHTTPResource("/t/rt-upstream/mcp")
    URI rtUpstream;

    @TestHTTPResource("/admin/t/")
    URI admin;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metricsUrl;

    private final HttpClient http = HttpClient.newHttpClient();

    private static Path data() {
        return Path.of(System.getProperty("test.data.dir"));
    }

    private static ObjectNode call(McpHttpClient c, String tool, String args) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", Json.parse(args));
        return c.request("tools/call", p);
    }

    private static String quote(String s) {
        return Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(s));
    }

    private HttpResponse<byte[]> export(String tenant, String query, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(admin.resolve(tenant + "/ledger/export" + query)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Exports the tenant's whole ledger, verifies it offline against the gateway's key, returns its entries. */
    private List<JsonNode> exportedAndVerified(String tenant, String query) throws Exception {
        HttpResponse<byte[]> r = export(tenant, query, Upstreams.AUDITOR_TOKEN);
        assertEquals(200, r.statusCode(), () -> new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("application/zip", r.headers().firstValue("Content-Type").orElse(""));
        Path bundle = Files.createTempFile("ledger-" + tenant + "-", ".zip");
        Files.write(bundle, r.body());
        VerifyReport report = new BundleVerifier(trusted(tenant)).verify(bundle);
        assertTrue(report.valid(), report::toJson);
        return entries(r.body());
    }

    /** The tenant log's verifier keys, derived from the dev key as the gateway derives them. */
    static TrustedKeys trusted(String tenant) throws IOException {
        return TrustedKeys.parse(dev.cloakgate.ledger.BundleKit.vkeys(data(), tenant,
                Ed25519SigningKey.fromFile(SigningKeys.devKeyFile(data()))));
    }

    static List<JsonNode> entries(byte[] zip) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                if (e.getName().equals("entries.jsonl")) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                        if (!line.isEmpty()) {
                            out.add(Json.parse(line));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static JsonNode find(List<JsonNode> entries, String what, Predicate<JsonNode> test) {
        return entries.stream().filter(test).findFirst()
                .orElseThrow(() -> new AssertionError("no entry for " + what + " among " + entries.size() + " entries"));
    }

    private static String digest(String tenant, String sessionId) throws IOException {
        return TenantSecret.load(data(), tenant).sessionDigest(sessionId);
    }

    @Test
    void policyDecisionsAtEveryStageAreEntries() throws Exception {
        String session;
        try (McpHttpClient c = new McpHttpClient(guarded)) {
            c.initialize("2025-11-25", Json.object());
            session = digest("guarded", c.sessionId());
            c.request("tools/list", Json.object());
            Path dir = Path.of(System.getProperty("test.guarded.dir"));
            assertTrue(call(c, "fs__read_text_file", "{\"path\":" + quote(dir.resolve("inside.txt").toString()) + "}").has("result"));
            assertEquals(-32001, call(c, "fs__read_text_file", "{\"path\":\"/etc/passwd\"}").path("error").path("code").asInt());
            assertEquals(-32001, call(c, "pol__drop_table", "{\"table\":\"users\"}").path("error").path("code").asInt());
            assertEquals(-32001, call(c, "pol__sneaky", "{}").path("error").path("code").asInt());
        }
        List<JsonNode> all = exportedAndVerified("guarded", "");
        List<JsonNode> mine = all.stream().filter(e -> session.equals(e.path("session").asText())).toList();
        find(mine, "a tool withheld at discovery", e -> e.path("kind").asText().equals("decision")
                && e.path("stage").asText().equals("discovery") && e.path("action").asText().equals("block")
                && e.path("tool").asText().equals("pol__sneaky"));
        find(mine, "an allowed call", e -> e.path("stage").asText().equals("request") && e.path("action").asText().equals("allow")
                && e.path("tool").asText().equals("fs__read_text_file"));
        find(mine, "its result", e -> e.path("stage").asText().equals("response") && e.path("tool").asText().equals("fs__read_text_file"));
        JsonNode refused = find(mine, "a refused call", e -> e.path("reason").asText().equals("path_outside_sandbox"));
        assertEquals("block", refused.path("action").asText());
        assertEquals("path_sandbox", refused.path("controls").path(0).asText());
        // the payload is bound by length and keyed digest, never carried
        assertTrue(refused.path("payload").path("bytes").asLong() > 0);
        assertTrue(refused.path("payload").path("hmac_sha256").asText().matches("[0-9a-f]{64}"));
        assertFalse(refused.toString().contains("/etc/passwd"), refused.toString());
        // ...which an auditor given the tenant secret and the payload can check
        assertEquals(TenantSecret.load(data(), "guarded").hmac("{\"path\":\"/etc/passwd\"}"),
                refused.path("payload").path("hmac_sha256").asText());
        find(mine, "a call held for approval", e -> e.path("action").asText().equals("require_approval")
                && e.path("reason").asText().equals("approval_required"));
        find(mine, "a call to a withheld tool", e -> e.path("stage").asText().equals("request")
                && e.path("reason").asText().equals("tool_withheld"));

        // the gateway's start is on record: the tenant file's digest, first
        JsonNode config = find(all, "the config load", e -> e.path("kind").asText().equals("config_loaded"));
        assertEquals(Upstreams.sha256File(Path.of(System.getProperty("test.tenants.dir")).resolve("guarded.json")),
                config.path("sha256").asText());
        assertEquals(0, all.get(0).path("seq").asLong());

        String metrics = http.send(HttpRequest.newBuilder(metricsUrl).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher entries = Pattern.compile("cloakgate_ledger_entries\\{tenant=\"guarded\"\\} ([0-9.E]+)").matcher(metrics);
        assertTrue(entries.find(), "the ledger's size is a metric");
        assertTrue(Double.parseDouble(entries.group(1)) >= all.size(), metrics);
        assertTrue(metrics.contains("cloakgate_ledger_lost 0.0"), "no entry lost");
    }

    @Test
    void callsOfATenantWithoutPolicyAreRecordedAsUnchecked() throws Exception {
        String session;
        String args = "{\"path\":" + quote(Path.of(System.getProperty("test.fs.root"), "hello.txt").toString()) + "}";
        try (McpHttpClient c = new McpHttpClient(fsTenant)) {
            c.initialize("2025-11-25", Json.object());
            session = digest("fs", c.sessionId());
            assertTrue(call(c, "fs__read_text_file", args).has("result"));
        }
        JsonNode e = find(exportedAndVerified("fs", ""), "the forwarded call", x -> session.equals(x.path("session").asText())
                && x.path("kind").asText().equals("tool_call"));
        assertEquals("fs__read_text_file", e.path("tool").asText());
        assertEquals("fs", e.path("upstream").asText());
        assertFalse(e.path("policy").asBoolean(true), "nothing was checked, and the entry says so");
        assertEquals(args.getBytes(StandardCharsets.UTF_8).length, e.path("payload").path("bytes").asLong());
        assertEquals(TenantSecret.load(data(), "fs").hmac(Json.parse(args).toString()), e.path("payload").path("hmac_sha256").asText());
    }

    @Test
    void cloakingRestoresAndRawPiiAreEntries() throws Exception {
        Path dir = Path.of(System.getProperty("test.roundtrip.dir"));
        List<String> ids = new ArrayList<>();
        for (String scope : List.of("session", "upstream")) {
            String session;
            URI url = scope.equals("session") ? rtSession : rtUpstream;
            try (McpHttpClient c = new McpHttpClient(url)) {
                c.initialize("2025-11-25", Json.object());
                ids.add(c.sessionId());
                session = digest("rt-" + scope, c.sessionId());
                String read = call(c, "fs__read_text_file", "{\"path\":" + quote(dir.resolve("contact.txt").toString()) + "}")
                        .path("result").path("content").path(0).path("text").asText();
                Matcher m = EMAIL_TOKEN.matcher(read);
                assertTrue(m.find(), read);
                call(c, "mem__create_entities", "{\"entities\":[{\"name\":\"ledger-" + scope + "\",\"entityType\":\"customer\","
                        + "\"observations\":[\"Contact: " + m.group() + "\"]}]}");
                call(c, "mem__create_entities", "{\"entities\":[{\"name\":\"raw-" + scope + "\",\"entityType\":\"customer\","
                        + "\"observations\":[\"Reach her at ledger.raw@example.org\"]}]}");
            }
            List<JsonNode> mine = exportedAndVerified("rt-" + scope, "").stream()
                    .filter(e -> session.equals(e.path("session").asText())).toList();
            JsonNode cloaked = find(mine, "the cloaked read", e -> e.path("kind").asText().equals("cloaked")
                    && e.path("upstream").asText().equals("fs"));
            assertTrue(cloaked.path("categories").path("EMAIL").asInt() >= 1, cloaked.toString());
            JsonNode restore = find(mine, "the cross-upstream restore", e -> e.path("kind").asText().equals("cross_upstream_restore"));
            assertEquals("fs", restore.path("from").path(0).asText());
            assertEquals("mem", restore.path("to").asText());
            assertEquals("EMAIL", restore.path("category").asText());
            assertEquals(scope.equals("upstream"), restore.path("refused").asBoolean(), restore.toString());
            if (scope.equals("session")) {
                // the entry of the create_entities call: a read's path under the test's temp dir (a 19-digit random
                // number, Luhn-valid one time in ten) may carry a raw_pii entry of its own
                JsonNode raw = find(mine, "the raw e-mail the model wrote", e -> e.path("kind").asText().equals("raw_pii")
                        && e.path("categories").has("EMAIL"));
                assertEquals(1, raw.path("categories").path("EMAIL").asInt(), raw.toString());
            }
            assertTrue(mine.stream().noneMatch(e -> e.toString().contains("example-eu.fr") || e.toString().contains("ledger.raw")));
        }
        // the log names these sessions (the restore and the raw PII are logged at info) by tag, never by id
        String log = Files.readString(Path.of(System.getProperty("test.gateway.log")));
        for (String id : ids) {
            assertFalse(log.contains(id), "a session id (a bearer handle) reached the log");
            assertTrue(log.contains(dev.cloakgate.evidence.LogTag.of(id)), "the session's lines carry its tag");
        }
        List<JsonNode> start = exportedAndVerified("rt-session", "?from_seq=0&to_seq=1");
        assertEquals(2, start.size());
        assertEquals("config_loaded", start.get(0).path("kind").asText());
        JsonNode check = start.get(1);
        assertEquals("self_check", check.path("kind").asText());
        assertTrue(check.path("passed").asBoolean());
        assertTrue(check.path("categories").toString().contains("EMAIL"), check.toString());
    }

    @Test
    void onlyTheTenantsAuditorMayExport() throws Exception {
        assertEquals(401, export("guarded", "", null).statusCode());
        assertEquals(401, export("guarded", "", "not-the-token").statusCode());
        assertEquals(401, export("guarded", "", Upstreams.sha256(Upstreams.AUDITOR_TOKEN)).statusCode(), "the hash is not the token");
        // issue 15: a tenant that does not exist refuses every credential as a bad one (AdminCredentialFirstTest)
        assertEquals(401, export("nosuch", "", Upstreams.AUDITOR_TOKEN).statusCode());
        HttpResponse<byte[]> bad = export("guarded", "?from_seq=5&to_seq=2", Upstreams.AUDITOR_TOKEN);
        assertEquals(400, bad.statusCode());
        assertEquals("bad_range", Json.parse(new String(bad.body(), StandardCharsets.UTF_8)).path("error").asText());
        assertEquals(400, export("guarded", "?to_seq=-1", Upstreams.AUDITOR_TOKEN).statusCode());
        assertEquals(400, export("guarded", "?to_seq=99999999", Upstreams.AUDITOR_TOKEN).statusCode());
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(admin.resolve("guarded/ledger/export"))
                .POST(HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + Upstreams.AUDITOR_TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
    }
}
