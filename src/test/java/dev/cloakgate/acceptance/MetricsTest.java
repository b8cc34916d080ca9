package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.Metrics;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The metrics an operator builds dashboards and alerts on (issue 10): after real traffic (calls, an upstream error,
 * an upstream that exits mid-call and comes back, an upstream that cannot start, sessions opened and ended, a bad
 * credential, client text where a client may put it), the management port's scrape has every metric the README documents, with the
 * values that traffic implies, and no label carries anything a client or an upstream wrote.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class MetricsTest {
    private static final String TOOL = Upstreams.METRICS_PLANT; // in the upstream's tool names, results and errors
    private static final String ARG = "zqarg3h8w";
    private static final String SESSION = "zqsess5n2c";
    private static final String METHOD = "zqmeth/9x1v";
    private static final String CLIENT = "zqclient2b6";
    private static final String UNKNOWN_TOOL = "zqunknown4t1";
    private static final String TOKEN = "zqtoken1d7";
    private static final List<String> PLANTS = List.of(TOOL, ARG, SESSION, METHOD, CLIENT, UNKNOWN_TOOL, TOKEN, "zq");

    @TestHTTPResource("/t/metrics/mcp")
    URI tenant;

    @TestHTTPResource("/t/dead/mcp")
    URI dead;

    @TestHTTPResource("/t/iso-a/mcp")
    URI withAuth;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    @Test
    void everyDocumentedMetricIsScrapedWithTheTrafficsValuesAndNoClientOrUpstreamText() throws Exception {
        try (McpHttpClient a = new McpHttpClient(tenant); McpHttpClient b = new McpHttpClient(tenant)) {
            ObjectNode info = Json.object();
            info.putObject("clientInfo").put("name", CLIENT).put("version", CLIENT);
            a.initialize("2025-11-25", info);
            b.initialize("2025-11-25", info);
            a.request("tools/list", Json.object());
            ObjectNode echoed = a.request("tools/call", call(TOOL + "_echo", ARG));
            assertTrue(text(echoed).contains(ARG) && text(echoed).contains("[EMAIL_"), "served and cloaked: " + echoed);
            ObjectNode failed = a.request("tools/call", call(TOOL + "_fail", null));
            assertTrue(failed.has("error") || failed.path("result").path("isError").asBoolean(), failed.toString());
            a.request("tools/call", call(UNKNOWN_TOOL, ARG));
            a.request(METHOD, Json.object());
            a.notify("notifications/" + METHOD, Json.object());

            ObjectNode crashed = a.request("tools/call", call(TOOL + "_crash", null));
            assertEquals("upstream_exited", crashed.path("error").path("data").path("reason").asText(), crashed.toString());
            ObjectNode back = a.request("tools/call", call(TOOL + "_echo", ARG + "again"));
            assertTrue(text(back).contains(ARG + "again"), "the upstream came back: " + back);

            McpHttpClient stranger = new McpHttpClient(tenant).headers(Map.of("Mcp-Session-Id", SESSION));
            assertEquals(404, stranger.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status());
            // issue 17: a peer header that does not verify (and one process takes no forwards at all) is counted
            McpHttpClient forger = new McpHttpClient(tenant).headers(Map.of("Mcp-Session-Id", SESSION,
                    "X-Cloakgate-Peer", "v1;r1;1;" + TOKEN));
            assertEquals(403, forger.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status());
            int ended = b.delete();
            assertTrue(ended >= 200 && ended < 300, "DELETE: " + ended);
        }
        try (McpHttpClient wrong = new McpHttpClient(withAuth).headers(Map.of("Authorization", "Bearer " + TOKEN))) {
            assertEquals(401, wrong.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status());
        }
        try (McpHttpClient c = new McpHttpClient(dead)) {
            assertEquals("upstream_unavailable",
                    c.initialize("2025-11-25", Json.object()).path("error").path("data").path("reason").asText());
        }
        // one session of the tenant left open, with a session that only this test uses
        McpHttpClient open = new McpHttpClient(tenant);
        open.initialize("2025-11-25", Json.object());
        try {
            Map<String, String> t = Map.of("tenant", "metrics");
            Map<String, String> up = Map.of("tenant", "metrics", "upstream", "planted");
            List<Metrics.Sample> s = awaitScrape(x -> Metrics.value(x, "cloakgate_upstream_failures_total",
                    with(up, "phase", "running", "reason", "upstream_exited")) >= 1
                    && Metrics.value(x, "cloakgate_sessions_open", t) == 1);

            List<String> missing = new ArrayList<>();
            Metrics.documented().forEach((name, type) -> Metrics.exposedAs(name, type).forEach(n -> {
                if (s.stream().noneMatch(x -> x.name().equals(n))) {
                    missing.add(n);
                }
            }));
            assertTrue(Metrics.documented().size() >= 20, "the README's table was read: " + Metrics.documented());
            assertEquals(List.of(), missing, "documented in the README but not scraped");

            for (Metrics.Sample x : s) {
                for (Map.Entry<String, String> l : x.labels().entrySet()) {
                    for (String p : PLANTS) {
                        assertFalse(l.getValue().contains(p), "client or upstream text in a label: " + x);
                    }
                }
            }

            assertEquals(1.0, Metrics.value(s, "cloakgate_sessions_open", t), "two opened, one deleted, one open");
            assertEquals(1.0, Metrics.value(s, "cloakgate_cluster_routed_total", with(t, "route", "peer_auth_failed")));
            assertTrue(Metrics.value(s, "cloakgate_request_seconds_count", with(t, "method", "tools/call")) >= 5);
            assertTrue(Metrics.value(s, "cloakgate_request_seconds_count", with(t, "method", "other")) >= 1,
                    "an unknown method is timed as other");
            assertTrue(Metrics.value(s, "cloakgate_messages_total", with(t, "method", "other")) >= 2);
            assertTrue(Metrics.value(s, "cloakgate_upstream_request_seconds_count", with(up, "method", "tools/call")) >= 4,
                    "calls that reached the upstream");
            assertTrue(Metrics.value(s, "cloakgate_upstream_request_seconds_count", with(up, "method", "initialize")) >= 3);
            assertEquals(3.0, Metrics.value(s, "cloakgate_upstream_starts_total", up), "one start per session");
            assertEquals(1.0, Metrics.value(s, "cloakgate_upstream_restarts_total", up), "back after the exit");
            assertEquals(1.0, Metrics.value(s, "cloakgate_upstream_failures_total",
                    with(up, "phase", "running", "reason", "upstream_exited")),
                    "one exit; the link the DELETE closed is not a failure");
            assertEquals(1.0, Metrics.value(s, "cloakgate_upstream_failures_total",
                    with(up, "phase", "request", "reason", "upstream_exited")), "the call in flight when it exited");
            assertTrue(Metrics.value(s, "cloakgate_upstream_failures_total", Map.of("tenant", "dead", "upstream", "gone",
                    "phase", "start", "reason", "upstream_unavailable")) >= 1, "an upstream that cannot start");
            assertTrue(s.stream().anyMatch(x -> x.name().equals("cloakgate_auth_refused_total")
                    && "iso-a".equals(x.labels().get("tenant")) && x.value() >= 1), "a bad credential is counted");
            assertTrue(Metrics.value(s, "cloakgate_ledger_append_seconds_count", t) > 0);
            assertTrue(Metrics.value(s, "cloakgate_ledger_checkpoint_age_seconds", t) >= 0);
            assertTrue(Metrics.value(s, "cloakgate_cloaked_total", with(t, "category", "EMAIL")) >= 2);
            assertEquals(0.0, Metrics.value(s, "cloakgate_raw_pii_total", with(t, "category", "IBAN")),
                    "a category exists at 0 before its first event");
        } finally {
            open.delete();
            open.close();
        }
    }

    private List<Metrics.Sample> awaitScrape(Predicate<List<Metrics.Sample>> ready) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpClient http = HttpClient.newHttpClient();
        while (true) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            for (String p : PLANTS) {
                assertFalse(r.body().contains(p), "planted text " + p + " in the scrape");
            }
            List<Metrics.Sample> s = Metrics.parse(r.body());
            if (ready.test(s) || System.nanoTime() > deadline) {
                return s;
            }
            Thread.sleep(200);
        }
    }

    private static Map<String, String> with(Map<String, String> base, String... kv) {
        Map<String, String> m = new java.util.HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static ObjectNode call(String tool, String text) {
        ObjectNode p = Json.object();
        p.put("name", "planted__" + tool);
        ObjectNode args = p.putObject("arguments");
        if (text != null) {
            args.put("text", text);
        }
        return p;
    }

    private static String text(ObjectNode response) {
        return response.path("result").path("content").path(0).path("text").asText();
    }
}
