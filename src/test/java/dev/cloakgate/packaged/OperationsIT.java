package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;

/**
 * The packaged jar as an operator meets it (issue 10): health and metrics only on the management port, usage
 * instead of a server for {@code --help} or a typo, and the README's demo export, key and verify lines run
 * exactly as written.
 */
class OperationsIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Every tenant file says who may call it (issue 10, identity); these say anyone. */
    private static final String OPEN = "\"auth\":{\"mode\":\"none\"}";

    private static void tenant(Path dir) throws Exception {
        Files.writeString(dir.resolve("team-o.json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(NodeFixtures.PROBE.toString()))
                + ",\"stdio\",\"--name\",\"alpha\"]}}," + OPEN + "}");
    }

    private static HttpResponse<String> get(java.net.URI url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthAndMetricsAreServedOnTheManagementPortOnly(@TempDir Path dir) throws Exception {
        tenant(dir);
        try (GatewayProcess gw = GatewayProcess.start(List.of("-Dcloakgate.tenants-dir=" + dir))) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(60)), "ready on the management port: " + gw.log());
            HttpResponse<String> metrics = get(gw.managementUrl("/q/metrics"));
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.body().contains("cloakgate_ledger_entries{tenant=\"team-o\"}"), metrics.body());
            assertEquals(200, get(gw.managementUrl("/q/health/live")).statusCode());
            // the port agents reach names no tenant and answers no probe
            for (String path : List.of("/q/metrics", "/q/health", "/q/health/ready", "/q/health/live")) {
                HttpResponse<String> r = get(gw.url(path));
                assertEquals(404, r.statusCode(), path + " on the agents' port: " + r.body());
                assertFalse(r.body().contains("team-o"), path);
            }
        }
    }

    @Test
    void helpAndUnknownArgumentsPrintUsageAndExit2WithoutServing() throws Exception {
        for (List<String> args : List.of(List.of("--help"), List.of("-h"), List.of("--bogus"), List.of("serve"),
                List.of("ledger"), List.of("ledger", "nope"), List.of("pins", "list", "--help"),
                List.of("ledger", "export", "--tenant", "t", "--out", "x.zip", "--frm-seq", "3"),
                List.of("ledger", "key", "extra"))) {
            GatewayProcess.Result r = GatewayProcess.run(List.of(), args.toArray(String[]::new));
            assertEquals(2, r.exit(), args + ": " + r.output());
            assertTrue(r.output().contains("usage:"), args + ": " + r.output());
            assertFalse(r.output().contains("Listening on") || r.output().contains("Exception"), args + ": " + r.output());
        }
    }

    @Test
    void checkReportsEveryErrorOfEveryFileAndWarnsOfACommandNotOnThePath(@TempDir Path dir) throws Exception {
        tenant(dir);
        Files.writeString(dir.resolve("team-p.json"), "{\"upstreams\":{\"x\":{\"comand\":\"npx\"}},\"sanitise\":true," + OPEN + "}");
        Files.writeString(dir.resolve("team-q.json"), "{\"upstreams\":{\"a\":{\"command\":\"node\"},}}");
        Files.writeString(dir.resolve("team-r.json"), "{\"upstreams\":{\"a\":{\"command\":\"no-such-mcp-server-h10\"}}," + OPEN + "}");
        GatewayProcess.Result r = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir), "--check");
        assertEquals(1, r.exit(), r.output());
        String o = r.output();
        assertTrue(o.contains("team-p.json: $.upstreams.x.comand: unknown key") && o.contains("team-p.json: $.sanitise"), o);
        assertFalse(o.contains("exactly one"), o);
        assertTrue(o.contains("team-q.json: $: not valid JSON at line 1") && o.contains("trailing comma"), o);
        assertTrue(o.contains("warning: ") && o.contains("team-r.json: $.upstreams.a.command: not found on the gateway's PATH"), o);
        assertTrue(o.contains("ok: tenant team-o") && o.contains("check failed: 3 problem(s)"), o);

        Files.delete(dir.resolve("team-p.json"));
        Files.delete(dir.resolve("team-q.json"));
        GatewayProcess.Result warned = GatewayProcess.run(List.of("-Dcloakgate.tenants-dir=" + dir), "--check");
        assertEquals(0, warned.exit(), "a command not found is a warning: " + warned.output());
        assertTrue(warned.output().contains("team-r.json: $.upstreams.a.command: not found"), warned.output());
    }

    /** The README's demo lines, as written: start, export over HTTP and from the command line, key, verify. */
    @Test
    void theReadmesDemoExportKeyAndVerifyWorkAsWritten(@TempDir Path cwd) throws Exception {
        Path repo = Path.of("").toAbsolutePath();
        copy(repo.resolve("config"), cwd.resolve("config"));
        copy(repo.resolve("demo"), cwd.resolve("demo"));
        List<String> readme = Files.readAllLines(repo.resolve("README.md"));
        String start = line(readme, "./mvnw -B package -DskipTests && java ").replaceFirst("^.*&& ", "").replaceFirst("\\s+#.*$", "");
        String curl = line(readme, "curl -H \"Authorization: Bearer demo-auditor-token\"");
        String export = line(readme, "ledger export --tenant demo");
        String key = line(readme, "quarkus-run.jar ledger key").replaceFirst("\\s+#.*$", "");
        String verify = line(readme, "ledger verify demo.zip");
        try (GatewayProcess gw = GatewayProcess.startAsWritten(cwd, start)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(90)), gw.log());
            Matcher token = Pattern.compile("Bearer ([^\"]+)\"").matcher(curl);
            assertTrue(token.find(), curl);
            HttpResponse<byte[]> http = HTTP.send(HttpRequest.newBuilder(gw.url("/admin/t/demo/ledger/export"))
                    .header("Authorization", "Bearer " + token.group(1)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, http.statusCode(), "the README's curl line");
            Files.write(cwd.resolve("over-http.zip"), http.body());

            GatewayProcess.Result exported = GatewayProcess.runAsWritten(cwd, export);
            assertEquals(0, exported.exit(), export + "\n" + exported.output());
            assertTrue(Files.size(cwd.resolve("demo.zip")) > 0);

            GatewayProcess.Result printed = GatewayProcess.runAsWritten(cwd, key);
            assertEquals(0, printed.exit(), key + "\n" + printed.output());
            List<String> pins = GateOperator.verifierKeys(printed.output());
            assertTrue(gw.log().contains("checkpoint key " + pins.get(0) + ", manifest key " + pins.get(1)),
                    "the keys the gateway signs the demo's log with: " + gw.log());
            String pinned = verify.replace("CHECKPOINT_KEY", pins.get(0)).replace("MANIFEST_KEY", pins.get(1));

            GatewayProcess.Result verified = GatewayProcess.runAsWritten(cwd, pinned);
            assertEquals(0, verified.exit(), verified.output());
            assertTrue(verified.output().contains("\"pinned\" : true"), verified.output());
            GatewayProcess.Result viaHttp = GatewayProcess.runAsWritten(cwd, pinned.replace("demo.zip", "over-http.zip"));
            assertEquals(0, viaHttp.exit(), viaHttp.output());
        }
    }

    private static String line(List<String> readme, String containing) {
        return readme.stream().filter(l -> l.contains(containing)).findFirst()
                .orElseThrow(() -> new AssertionError("README has no line with: " + containing)).trim()
                .replaceFirst("^`", "").replaceFirst("`[,.]?$", "");
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
