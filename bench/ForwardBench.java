import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 17: the cost of forwarding. One MCP session opened on replica r0 (its owner); then the same small tools/call
 * sent alternately to r0 (served where it lands) and to r1 (forwarded to r0 and relayed back), back to back,
 * latency measured by this client. Interleaving puts both rows under the same machine load.
 * Usage: java bench/ForwardBench.java OWNER_URL OTHER_URL WARMUP_SECONDS SECONDS LABEL
 */
public final class ForwardBench {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public static void main(String[] args) throws Exception {
        URI owner = URI.create(args[0]);
        URI other = URI.create(args[1]);
        long warmup = Long.parseLong(args[2]);
        long seconds = Long.parseLong(args[3]);
        String label = args[4];
        HttpResponse<String> init = post(owner, null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"forward-bench\",\"version\":\"1\"}}}");
        String sid = init.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new IllegalStateException(init.body()));
        post(owner, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        List<Long> here = new ArrayList<>();
        List<Long> forwarded = new ArrayList<>();
        long id = 1;
        for (boolean measuring : new boolean[] { false, true }) {
            long end = System.nanoTime() + Duration.ofSeconds(measuring ? seconds : warmup).toNanos();
            while (System.nanoTime() < end) {
                for (URI u : new URI[] { owner, other }) {
                    String body = "{\"jsonrpc\":\"2.0\",\"id\":" + (id++) + ",\"method\":\"tools/call\",\"params\":"
                            + "{\"name\":\"echo\",\"arguments\":{\"text\":\"hello\"}}}";
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = post(u, sid, body);
                    long t = System.nanoTime() - t0;
                    if (r.statusCode() != 200 || !r.body().contains("\"result\"")) {
                        throw new IllegalStateException("HTTP " + r.statusCode() + ": " + r.body());
                    }
                    if (measuring) {
                        (u == owner ? here : forwarded).add(t / 1000);
                    }
                }
            }
        }
        row(label, "on-owner", here, seconds);
        row(label, "forwarded", forwarded, seconds);
    }

    private static void row(String label, String config, List<Long> micros, long seconds) {
        long[] s = micros.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("{\"run\":\"%s\",\"config\":\"%s\",\"calls\":%d,\"seconds\":%d,\"p50_us\":%d,\"p90_us\":%d,"
                + "\"p99_us\":%d}%n", label, config, s.length, seconds, pct(s, 50), pct(s, 90), pct(s, 99));
    }

    private static long pct(long[] sorted, int p) {
        return sorted.length == 0 ? -1 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static HttpResponse<String> post(URI u, String sid, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (sid != null) {
            b.header("Mcp-Session-Id", sid).header("MCP-Protocol-Version", "2025-11-25");
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

}
