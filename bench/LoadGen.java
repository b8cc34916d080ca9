import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load generator for cloakgate's benchmarks, run with the JDK's source launcher (no build):
 *
 *   java bench/LoadGen.java latency URL TOOL CONCURRENCY SECONDS WARMUP_SECONDS LABEL
 *   java bench/LoadGen.java sessions URL COUNT
 *
 * latency: CONCURRENCY clients, each with its own MCP session, call TOOL ({"text":"ping"}) back to back; prints
 * one JSON line with calls/s and latency percentiles (microseconds) measured after the warm-up.
 * sessions: opens COUNT sessions and keeps them, printing "READY n" once they are all initialized, until stdin
 * closes; used to measure the gateway's heap per idle session.
 */
public class LoadGen {
    private static final Pattern SESSION = Pattern.compile("(?i)mcp-session-id");

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "latency" -> latency(URI.create(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args[6]);
            case "sessions" -> sessions(URI.create(args[1]), Integer.parseInt(args[2]));
            default -> throw new IllegalArgumentException("latency | sessions");
        }
    }

    /** One MCP session over streamable HTTP: initialize, then POST calls; SSE answers are read to the result. */
    static final class Session {
        final HttpClient http;
        final URI url;
        String id;
        String version = "2025-06-18";
        long next = 1;

        Session(HttpClient http, URI url) throws Exception {
            this.http = http;
            this.url = url;
            HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                    + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"loadgen\",\"version\":\"1\"}}}");
            id = r.headers().firstValue("mcp-session-id").orElseThrow(() -> new IllegalStateException(
                    "no session id: HTTP " + r.statusCode() + " " + r.body()));
            if (!r.body().contains("\"result\"")) {
                throw new IllegalStateException("initialize failed: " + r.body());
            }
            HttpResponse<String> n = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            if (n.statusCode() != 202 && n.statusCode() != 200) {
                throw new IllegalStateException("initialized: HTTP " + n.statusCode());
            }
        }

        HttpResponse<String> post(String body) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (id != null) {
                b.header("Mcp-Session-Id", id).header("MCP-Protocol-Version", version);
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        void call(String tool) throws Exception {
            HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":" + (next++) + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                    + tool + "\",\"arguments\":{\"text\":\"ping\"}}}");
            if (r.statusCode() != 200 || !r.body().contains("\"result\"")) {
                throw new IllegalStateException("call failed: HTTP " + r.statusCode() + " " + r.body());
            }
        }
    }

    static void latency(URI url, String tool, int concurrency, int seconds, int warmup, String label) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<Session> sessions = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            sessions.add(new Session(http, url));
        }
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean stop = new AtomicBoolean(false);
        List<long[]> samples = new ArrayList<>();
        int[] counts = new int[concurrency];
        CountDownLatch done = new CountDownLatch(concurrency);
        List<Throwable> errors = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            long[] mine = new long[2_000_000];
            samples.add(mine);
            int idx = i;
            Thread t = new Thread(() -> {
                try {
                    Session s = sessions.get(idx);
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        s.call(tool);
                        long dt = System.nanoTime() - t0;
                        if (measuring.get() && counts[idx] < mine.length) {
                            mine[counts[idx]++] = dt;
                        }
                    }
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                } finally {
                    done.countDown();
                }
            });
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(warmup * 1000L);
        measuring.set(true);
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        long elapsed = System.nanoTime() - start;
        stop.set(true);
        done.await();
        if (!errors.isEmpty()) {
            throw new IllegalStateException(label + ": " + errors.size() + " client(s) failed", errors.get(0));
        }
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int k = 0;
        for (int i = 0; i < concurrency; i++) {
            System.arraycopy(samples.get(i), 0, all, k, counts[i]);
            k += counts[i];
        }
        Arrays.sort(all);
        System.out.printf("{\"label\":\"%s\",\"concurrency\":%d,\"calls\":%d,\"callsPerSec\":%.1f,\"p50us\":%d,\"p90us\":%d,\"p99us\":%d}%n",
                label, concurrency, total, total / (elapsed / 1e9), pct(all, 0.50), pct(all, 0.90), pct(all, 0.99));
        for (Session s : sessions) {
            HttpRequest del = HttpRequest.newBuilder(url).header("Mcp-Session-Id", s.id).DELETE().build();
            http.send(del, HttpResponse.BodyHandlers.discarding());
        }
    }

    static long pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))] / 1000;
    }

    static void sessions(URI url, int count) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<Session> open = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            open.add(new Session(http, url));
        }
        System.out.println("READY " + open.size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold the sessions until the caller closes stdin
        }
    }
}
