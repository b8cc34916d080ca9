package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.server.LedgerVerifyCommand;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Upstreams;
import dev.cloakgate.testing.WitnessedGateway;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 15, witness cosigning, against the booted gateway: its ledger writes real entries, each checkpoint goes to a
 * witness written in the test from C2SP tlog-witness ({@code TestWitness}, which checks the checkpoint's signature
 * and the consistency proof itself) and to one that is down; the cosignatures land in the export, and
 * {@code ledger verify --witness --min-witnesses} requires them.
 */
@QuarkusTest
@WithTestResource(WitnessedGateway.class)
class WitnessCosigningTest {
    private static final String TENANT = "witnessed";

    @Inject
    Gateway gateway;

    @TestHTTPResource("/t/witnessed/mcp")
    URI mcp;

    @TestHTTPResource("/admin/t/")
    URI admin;

    private final HttpClient http = HttpClient.newHttpClient();

    private static String witnessKey() {
        return System.getProperty("test.witness.vkey");
    }

    private static String witnessId() {
        String[] p = witnessKey().split("\\+");
        return p[0] + "+" + p[1];
    }

    private Ledger ledger() {
        return gateway.ledger(TENANT);
    }

    /** The witness learns the log: its origin and checkpoint key, both read from the gateway's ledger. */
    @BeforeEach
    void witnessTrustsTheLog() throws Exception {
        control("trust", ledger().origin() + "\n" + ledger().keys().checkpoint().verifier().encoded());
        control("pause", "off");
    }

    @Test
    void cosignaturesReachTheExportAndVerifyRequiresThem() throws Exception {
        traffic(2);
        Path first = export();
        long size = lastCheckpointSize(first);
        assertTrue(lastNote(first).contains("\u2014 witness.test/a "), lastNote(first));
        Result ok = verify(first, "--witness", witnessKey(), "--min-witnesses", "1");
        assertEquals(0, ok.exit(), ok.out());
        assertEquals(witnessId(), ok.report().path("witnesses").path("last_checkpoint_cosigned_by").path(0).asText(), ok.out());
        assertTrue(witnessState()[0] >= size, "the witness recorded the cosigned size");

        // the next checkpoint goes with a consistency proof from that size, which the witness checks
        int proofsBefore = witnessState()[3];
        traffic(2);
        Path second = export();
        assertTrue(lastCheckpointSize(second) > size);
        assertEquals(0, verify(second, "--witness", witnessKey()).exit());
        assertTrue(witnessState()[3] > proofsBefore, "a non-empty consistency proof was verified by the witness");
        assertTrue(witnessState()[0] >= lastCheckpointSize(second));

        // too few witnesses: the second one is down, so it cosigned nothing
        Result two = verify(second, "--witness", witnessKey(), "--witness", System.getProperty("test.witness.down.vkey"),
                "--min-witnesses", "2");
        assertEquals(1, two.exit(), two.out());
        assertEquals(List.of("witnesses_insufficient"), checks(two));
        assertEquals(1, two.report().path("witnesses").path("last_checkpoint_cosigned_by").size());
        Result down = verify(second, "--witness", System.getProperty("test.witness.down.vkey"));
        assertEquals(List.of("witnesses_insufficient"), checks(down));

        // a wrong pin (another key under the witness's name): its lines are not this key's, so nothing counts
        Result wrong = verify(second, "--witness", dev.cloakgate.testing.TestWitness.otherVkey("witness.test/a"));
        assertEquals(1, wrong.exit());
        assertEquals(List.of("witnesses_insufficient"), checks(wrong));

        // a tampered cosignature of the pinned witness is reported as such (and the manifest no longer matches)
        Path tampered = tamperCosignature(second);
        Result bad = verify(tampered, "--witness", witnessKey());
        assertEquals(1, bad.exit());
        assertTrue(checks(bad).contains("witness_cosignature_invalid"), bad.out());
        assertTrue(checks(bad).contains("witnesses_insufficient"), bad.out());
        // without witness options the bundle still verifies as before: the cosignature lines are signatures of other keys
        assertEquals(0, verify(second).exit());
    }

    @Test
    void aWitnessThatLostItsStateIsCaughtUpAfterA409() throws Exception {
        traffic(1);
        export();
        int conflicts = witnessState()[2];
        control("forget", ledger().origin()); // restarted without its state: at size 0
        traffic(1);
        Path bundle = export();
        assertEquals(conflicts + 1, witnessState()[2], "the gateway's old size drew a 409");
        assertTrue(witnessState()[0] >= lastCheckpointSize(bundle), "and it retried from the size the 409 gave");
        assertEquals(0, verify(bundle, "--witness", witnessKey()).exit());
    }

    @Test
    void aWitnessAheadOfTheGatewaysRecordIsCaughtUpAfterA409() throws Exception {
        traffic(1);
        export();
        long cosigned = witnessState()[0];
        control("pause", "on"); // it answers 503: the gateway keeps its record of the last cosigned size
        traffic(1);
        Path missed = export();
        long seen = lastCheckpointSize(missed);
        assertTrue(seen > cosigned);
        assertEquals(List.of("witnesses_insufficient"), checks(verify(missed, "--witness", witnessKey())),
                "a checkpoint the witness did not cosign");
        control("adopt", ledger().origin()); // it learned that checkpoint elsewhere: ahead of the gateway's record
        control("pause", "off");
        int conflicts = witnessState()[2];
        int proofs = witnessState()[3];
        traffic(1);
        Path bundle = export();
        assertEquals(conflicts + 1, witnessState()[2], "the gateway's old size drew a 409");
        assertEquals(proofs + 1, witnessState()[3], "then a proof from the witness's size verified");
        assertTrue(witnessState()[0] >= lastCheckpointSize(bundle));
        assertEquals(0, verify(bundle, "--witness", witnessKey()).exit());
    }

    // ---- helpers ----

    private void traffic(int calls) {
        String args = "{\"path\":" + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(
                Path.of(System.getProperty("test.witness.fs.root"), "hello.txt").toString())) + "}";
        try (McpHttpClient c = new McpHttpClient(mcp)) {
            c.initialize("2025-11-25", Json.object());
            for (int i = 0; i < calls; i++) {
                ObjectNode p = Json.object();
                p.put("name", "fs__read_text_file");
                p.set("arguments", Json.parse(args));
                assertTrue(c.request("tools/call", p).has("result"));
            }
        }
    }

    private Path export() throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(admin.resolve(TENANT + "/ledger/export"))
                .header("Authorization", "Bearer " + Upstreams.AUDITOR_TOKEN).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), () -> new String(r.body(), StandardCharsets.UTF_8));
        Path f = Files.createTempFile("witnessed-", ".zip");
        Files.write(f, r.body());
        return f;
    }

    private record Result(int exit, String out) {
        JsonNode report() {
            return Json.parse(out);
        }
    }

    private Result verify(Path bundle, String... extra) {
        List<String> args = new ArrayList<>(List.of("ledger", "verify", bundle.toString(), "--trust-key",
                ledger().keys().checkpoint().verifier().encoded(), "--trust-key", ledger().keys().manifest().verifier().encoded()));
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new LedgerVerifyCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args.toArray(String[]::new));
        return new Result(exit, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> checks(Result r) {
        List<String> out = new ArrayList<>();
        r.report().path("failures").forEach(f -> {
            if (!out.contains(f.path("check").asText())) {
                out.add(f.path("check").asText());
            }
        });
        return out;
    }

    private static String lastCheckpointPart(Path bundle) throws IOException {
        String last = null;
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(bundle))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                if (e.getName().startsWith("checkpoints/") && (last == null || e.getName().compareTo(last) > 0)) {
                    last = e.getName();
                }
            }
        }
        return last;
    }

    private static String lastNote(Path bundle) throws IOException {
        String part = lastCheckpointPart(bundle);
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(bundle))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                if (e.getName().equals(part)) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        throw new AssertionError("no checkpoint in " + bundle);
    }

    private static long lastCheckpointSize(Path bundle) throws IOException {
        return Long.parseLong(lastNote(bundle).split("\n")[1]);
    }

    /** The bundle with one bit of the witness's Ed25519 signature flipped in the last checkpoint's note. */
    private static Path tamperCosignature(Path bundle) throws IOException {
        String part = lastCheckpointPart(bundle);
        Path out = Files.createTempFile("witnessed-tampered-", ".zip");
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(bundle));
                ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                byte[] bytes = in.readAllBytes();
                if (e.getName().equals(part)) {
                    StringBuilder note = new StringBuilder();
                    for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n", -1)) {
                        if (line.startsWith("\u2014 witness.test/a ")) {
                            byte[] sig = Base64.getDecoder().decode(line.substring(line.lastIndexOf(' ') + 1));
                            sig[sig.length - 1] ^= 1;
                            line = line.substring(0, line.lastIndexOf(' ') + 1) + Base64.getEncoder().encodeToString(sig);
                        }
                        note.append(line).append('\n');
                    }
                    bytes = note.substring(0, note.length() - 1).getBytes(StandardCharsets.UTF_8);
                }
                zip.putNextEntry(new ZipEntry(e.getName()));
                zip.write(bytes);
                zip.closeEntry();
            }
        }
        return out;
    }

    private void control(String what, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(System.getProperty("test.witness.control") + what))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
    }

    /** size cosigned, cosignatures given, 409s answered, non-empty proofs verified: for this log. */
    private int[] witnessState() throws Exception {
        String origin = URLEncoder.encode(ledger().origin(), StandardCharsets.UTF_8);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(System.getProperty("test.witness.control")
                + "state?origin=" + origin)).GET().build(), HttpResponse.BodyHandlers.ofString());
        String[] p = r.body().strip().split(" ");
        return new int[] { Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]) };
    }
}
