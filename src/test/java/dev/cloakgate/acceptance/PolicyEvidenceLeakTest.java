package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
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
import java.util.Set;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.ledger.BundleVerifier;
import dev.cloakgate.ledger.VerifyReport;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.PlantSearch;
import dev.cloakgate.testing.Plants;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 9, item 4: a policy finding names where it looked by JSON pointer, and a pointer is made of keys, which
 * an upstream (results) or the model (arguments) chooses: an e-mail, a card number, a name. The tenant here does
 * not cloak, and its upstream (src/test/node/pii-keys-server.mjs) keys results by the leak probe's planted values
 * with hostile values under them; the model sends planted keys as arguments and tool names. No planted value, nor
 * its plain SHA-256, may reach the decision trace, the ledger's database files, the auditor's export, the
 * gateway's log, or the client's error.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class PolicyEvidenceLeakTest {
    private static final Set<String> REASONS = Set.of("egress_link_removed", "secret_redacted", "instruction_injection",
            "schema_violation", "egress_denied", "unknown_tool");

    @TestHTTPResource("/t/pii-keys/mcp")
    URI piiKeys;

    @TestHTTPResource("/admin/t/pii-keys/ledger/export")
    URI export;

    private static ObjectNode call(McpHttpClient c, String tool, JsonNode args) {
        ObjectNode p = Json.object();
        p.put("name", tool);
        p.set("arguments", args);
        return c.request("tools/call", p);
    }

    @Test
    void plantedKeysReachNeitherTheTraceNorTheLedgerNorTheClientsError() throws Exception {
        List<String> errors = new ArrayList<>();
        List<String> plants = Plants.all();
        try (McpHttpClient c = new McpHttpClient(piiKeys)) {
            c.initialize("2025-11-25", Json.object());
            assertEquals(3, c.request("tools/list", Json.object()).path("result").path("tools").size());
            // response stage, let through redacted: links and credentials under planted keys
            ObjectNode dir = call(c, "pk__directory", Json.object());
            assertTrue(dir.path("result").toString().contains("[link removed"), dir.toString());
            // response stage, refused: an injection under planted keys, one planted value at a time
            for (int n = 0; n < plants.size(); n++) {
                ObjectNode r = call(c, "pk__profile", Json.obj("{\"n\":" + n + "}"));
                assertEquals("instruction_injection", r.path("error").path("data").path("reason").asText(), r.toString());
                errors.add(Json.write(r.path("error")));
            }
            // request stage, refused: planted keys in the arguments, a hostile link and planted values under them
            for (String v : plants) {
                ObjectNode args = Json.object();
                ObjectNode entry = args.putObject("by_value").putObject(v);
                entry.put("homepage", "https://evil.example/?q=" + v);
                entry.put(v, v);
                args.put(v, 1);
                ObjectNode r = call(c, "pk__lookup", args);
                assertEquals(-32001, r.path("error").path("code").asInt(), r.toString());
                errors.add(Json.write(r.path("error")));
            }
            // request stage, refused: a tool name the model made up out of a planted value, unknown to its upstream
            // (the refusal names the tool back to the client that sent it; the record must not)
            for (String v : plants) {
                ObjectNode r = call(c, "pk__" + v, Json.object());
                assertEquals("unknown_tool", r.path("error").path("data").path("reason").asText(), r.toString());
            }
        }
        PlantSearch.assertNone("the errors the client received", String.join("\n", errors).getBytes(StandardCharsets.UTF_8));

        Path data = Path.of(System.getProperty("test.data.dir"));
        Path trace = data.resolve("trace/pii-keys.jsonl");
        String traced = eventually(() -> Files.exists(trace) ? Files.readString(trace) : "", this::hasEveryReason);
        PlantSearch.assertNone("the decision trace", traced.getBytes(StandardCharsets.UTF_8));
        // the findings still say where: a planted key is named by its position, a made-up tool as undeclared
        assertTrue(traced.contains("/structuredContent/by_value/~k"), traced);
        assertTrue(traced.contains("\"tool\":\"~undeclared\""), traced);

        byte[] zip = eventually(this::exported, b -> hasEveryReason(new String(entriesPart(b), StandardCharsets.UTF_8)));
        Path bundle = Files.createTempFile("ledger-pii-keys-", ".zip");
        Files.write(bundle, zip);
        VerifyReport report = new BundleVerifier(EvidenceTest.trusted("pii-keys")).verify(bundle);
        assertTrue(report.valid(), report::toJson);
        int parts = 0;
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                PlantSearch.assertNone("part " + e.getName() + " of the export", in.readAllBytes());
                parts++;
            }
        }
        assertTrue(parts >= 4, "entries, checkpoints, proofs and manifest: " + parts);
        // the decision events also go to the gateway's log (at debug, which the test resource writes to a file)
        PlantSearch.assertNone("the gateway's log", Files.readAllBytes(Path.of(System.getProperty("test.gateway.log"))));
        Path ledgers = data.resolve("ledger");
        for (String file : List.of("pii-keys.db", "pii-keys.db-wal")) {
            if (Files.exists(ledgers.resolve(file))) {
                PlantSearch.assertNone(file, Files.readAllBytes(ledgers.resolve(file)));
            }
        }
    }

    @TestHTTPResource("/t/pii-names/mcp")
    URI piiNames;

    @TestHTTPResource("/admin/t/pii-names/ledger/export")
    URI namesExport;

    /**
     * Without a policy nothing judges a tool name, yet a tool name the model made up out of a planted value is
     * unknown to the upstream: refused ({@code unknown_tool}) before it is forwarded, so neither a forwarded call
     * (tool_call) nor the model's raw PII (raw_pii) is recorded for it, and no plant reaches a record.
     */
    @Test
    void toolNamesMadeOfPlantedValuesAreWithheldFromRecordsNoPolicyWrote() throws Exception {
        List<String> plants = Plants.all();
        try (McpHttpClient c = new McpHttpClient(piiNames)) {
            c.initialize("2025-11-25", Json.object());
            for (String v : plants) {
                ObjectNode r = call(c, "pk__" + v, Json.obj("{\"note\":\"write to grace.hopper@example.com\"}"));
                assertEquals("unknown_tool", r.path("error").path("data").path("reason").asText(), r.toString());
            }
            // one call that is forwarded, after the others: once its records are in, the others would be too
            call(c, "pk__directory", Json.obj("{\"note\":\"write to grace.hopper@example.com\"}"));
        }
        byte[] zip = eventually(() -> exportOf(namesExport), b -> {
            String entries = new String(entriesPart(b), StandardCharsets.UTF_8);
            return count(entries, "\"kind\":\"tool_call\"") >= 1 && count(entries, "\"kind\":\"raw_pii\"") >= 1;
        });
        String entries = new String(entriesPart(zip), StandardCharsets.UTF_8);
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                PlantSearch.assertNone("part " + e.getName() + " of the pii-names export", in.readAllBytes());
            }
        }
        assertEquals(1, count(entries, "\"kind\":\"tool_call\""), entries);
        assertEquals(1, count(entries, "\"kind\":\"raw_pii\""), entries);
        assertTrue(entries.contains("\"tool\":\"pk__directory\""), entries);
        Path ledgers = Path.of(System.getProperty("test.data.dir")).resolve("ledger");
        for (String file : List.of("pii-names.db", "pii-names.db-wal")) {
            if (Files.exists(ledgers.resolve(file))) {
                PlantSearch.assertNone(file, Files.readAllBytes(ledgers.resolve(file)));
            }
        }
        PlantSearch.assertNone("the gateway's log", Files.readAllBytes(Path.of(System.getProperty("test.gateway.log"))));
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    private boolean hasEveryReason(String text) {
        return REASONS.stream().allMatch(r -> text.contains("\"reason\":\"" + r + "\""));
    }

    private byte[] exported() throws IOException, InterruptedException {
        return exportOf(export);
    }

    private static byte[] exportOf(URI export) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(export)
                .header("Authorization", "Bearer " + Upstreams.AUDITOR_TOKEN).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        return r.body();
    }

    private static byte[] entriesPart(byte[] zip) {
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                if (e.getName().equals("entries.jsonl")) {
                    return in.readAllBytes();
                }
            }
            return new byte[0];
        } catch (IOException e) {
            return new byte[0];
        }
    }

    interface Read<T> {
        T get() throws Exception;
    }

    /** The trace and the ledger are written by background threads: wait generously for what must arrive. */
    private static <T> T eventually(Read<T> read, java.util.function.Predicate<T> done) throws Exception {
        long until = System.nanoTime() + 60_000_000_000L;
        T last = read.get();
        while (!done.test(last) && System.nanoTime() < until) {
            Thread.sleep(200);
            last = read.get();
        }
        assertTrue(done.test(last), "never arrived: " + last);
        return last;
    }
}
