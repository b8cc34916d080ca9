import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Process economy benchmark (issue 10), run with the JDK's source launcher:
 *
 *   java bench/SessionsBench.java URL COUNT TOOL ARGS_JSON LABEL
 *
 * Opens COUNT MCP sessions one after the other, timing each initialize (which spawns or joins the tenant's stdio
 * children) and then one tools/call of TOOL in each; prints one JSON line with the percentiles (milliseconds),
 * then "READY" and holds the sessions until stdin closes, so the caller can measure memory; then DELETEs them.
 */
public class SessionsBench {
    private static final Pattern SESSION = Pattern.compile("(?i)mcp-session-id");

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        int count = Integer.parseInt(args[1]);
        String tool = args[2];
        String toolArgs = args[3];
        String label = args[4];
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<String> ids = new ArrayList<>();
        long[] connect = new long[count];
        long[] firstCall = new long[count];
        int failed = 0;
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> init = http.send(post(url, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                    + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\","
                    + "\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofString());
            connect[i] = System.nanoTime() - t0;
            String id = init.headers().map().entrySet().stream().filter(e -> SESSION.matcher(e.getKey()).matches())
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
            if (init.statusCode() != 200 || id == null || !init.body().contains("\"result\"")) {
                failed++;
                System.err.println("initialize " + i + ": HTTP " + init.statusCode() + " " + init.body());
                continue;
            }
            ids.add(id);
            http.send(post(url, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                    HttpResponse.BodyHandlers.discarding());
            long t1 = System.nanoTime();
            HttpResponse<String> call = http.send(post(url, id, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + toolArgs + "}}"),
                    HttpResponse.BodyHandlers.ofString());
            firstCall[i] = System.nanoTime() - t1;
            if (!call.body().contains("\"result\"") || call.body().contains("\"isError\":true")) {
                failed++;
                System.err.println("call " + i + ": " + call.body());
            }
        }
        Arrays.sort(connect);
        Arrays.sort(firstCall);
        System.out.printf("{\"label\":\"%s\",\"sessions\":%d,\"failed\":%d,\"connectMsP50\":%.1f,\"connectMsP95\":%.1f,"
                + "\"connectMsMax\":%.1f,\"connectSecondsTotal\":%.1f,\"firstCallMsP50\":%.1f,\"firstCallMsP95\":%.1f}%n",
                label, count, failed, ms(connect, 0.5), ms(connect, 0.95), ms(connect, 1.0),
                Arrays.stream(connect).sum() / 1e9, ms(firstCall, 0.5), ms(firstCall, 0.95));
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold the sessions until the caller closes stdin
        }
        for (String id : ids) {
            http.send(HttpRequest.newBuilder(url).header("Mcp-Session-Id", id).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
        }
    }

    static HttpRequest post(URI url, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        }
        return b.build();
    }

    static double ms(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))] / 1e6;
    }
}
