package dev.cloakgate.acceptance;

import static dev.cloakgate.acceptance.TwoUpstreamsTest.call;
import static dev.cloakgate.acceptance.TwoUpstreamsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.McpHttpClient;
import dev.cloakgate.testing.RawHttp;
import dev.cloakgate.testing.TransportLimitsProfile;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 9, item 8: a client that opens its event stream and never reads it, while its upstream floods
 * notifications. The gateway must end that stream instead of queueing without bound (asserted on the gateway's
 * own accounting, {@code cloakgate_http_queued_bytes}), and another client of the same tenant keeps its answers.
 */
@QuarkusTest
@TestProfile(TransportLimitsProfile.class)
class UnreadStreamTest {
    private static final int COUNT = 256;
    private static final int BYTES = 256 * 1024;
    private static final Pattern QUEUED = Pattern.compile("(?m)^cloakgate_http_queued_bytes(?:\\{[^}]*\\})? ([0-9.E+]+)$");
    private static final Pattern ENDED = Pattern.compile("(?m)^cloakgate_http_streams_ended_total\\{[^}]*\\} ([0-9.E+]+)$");

    /** One client for every scrape: each new client would be one more connection from this address. */
    private final HttpClient http = HttpClient.newHttpClient();

    @TestHTTPResource("/t/flood/mcp")
    URI flood;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    @Test
    void aStreamNobodyReadsIsEndedAndItsBacklogStaysBounded() throws Exception {
        try (McpHttpClient flooded = new McpHttpClient(flood); McpHttpClient honest = new McpHttpClient(flood);
                RawHttp reader = RawHttp.connect(flood, "127.0.0.3")) {
            flooded.initialize("2025-11-25", Json.object());
            honest.initialize("2025-11-25", Json.object());
            double endedBefore = ended();
            reader.send("GET " + flood.getRawPath() + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                    + "Mcp-Session-Id: " + flooded.sessionId() + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n");
            assertEquals("flooding", text(flooded.request("tools/call",
                    call("fl__flood", "{\"count\":" + COUNT + ",\"bytes\":" + BYTES + "}"))));

            double maxQueued = 0;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            boolean endedNow = false;
            while (System.nanoTime() < until && !endedNow) {
                String m = scrape();
                maxQueued = Math.max(maxQueued, value(QUEUED, m));
                endedNow = sum(ENDED, m) > endedBefore;
                // the other session of the same tenant is answered throughout
                assertEquals("fl:still here", text(honest.request("tools/call", call("fl__echo", "{\"text\":\"still here\"}"))));
                Thread.sleep(100);
            }
            assertTrue(endedNow, "the gateway never ended the stream nobody reads");
            long bound = TransportLimitsProfile.QUEUED_PER_SESSION + 4L * BYTES;
            assertTrue(maxQueued <= bound, "queued " + maxQueued + " bytes, bound " + bound);

            // the unread connection was closed: what the kernel had taken arrives, then the end of the stream
            RawHttp.Received r = reader.readUntilClosed(30_000);
            assertTrue(r.closed(), "the stream is still open after " + r.bytes() + " bytes");
            assertTrue(r.bytes() < (long) COUNT * BYTES / 2, "read " + r.bytes() + " bytes: nothing was held back");
            assertTrue(r.status().startsWith("HTTP/1.1 200"), r.status());
        }
    }

    private String scrape() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(metrics).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    private double ended() throws Exception {
        return sum(ENDED, scrape());
    }

    private static double value(Pattern p, String metrics) {
        Matcher m = p.matcher(metrics);
        assertTrue(m.find(), "metric " + p + " missing");
        return Double.parseDouble(m.group(1));
    }

    private static double sum(Pattern p, String metrics) {
        Matcher m = p.matcher(metrics);
        double total = 0;
        while (m.find()) {
            total += Double.parseDouble(m.group(1));
        }
        return total;
    }
}
