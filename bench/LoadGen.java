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
 *   java bench/LoadGen.java jwt-issuer DIR ISSUER AUDIENCE SUBJECT
 *
 * With LOADGEN_TOKEN set, every request carries "Authorization: Bearer $LOADGEN_TOKEN" (a tenant's static token
 * or a JWT). With LOADGEN_TASK_CONTEXT set, initialize carries it as the Cloakgate-Task-Context header (issue 11: a
 * signed task context, as `task sign` prints it); with LOADGEN_UNIQUE_ARGS=1 every call's text is unique ("ping-"
 * and the session's nonce and call number), so a gated side-effecting tool runs every call instead of replaying. jwt-issuer makes a throwaway issuer for the JWT tenant: an RSA key whose JWKS it writes to
 * DIR/jwks.json, and prints one RS256 token for SUBJECT, valid two hours.
 *
 * latency: CONCURRENCY clients, each with its own MCP session, call TOOL ({"text":"ping"}) back to back; prints
 * one JSON line with calls/s and latency percentiles (microseconds) measured after the warm-up.
 * sessions: opens COUNT sessions and keeps them, printing "READY n" once they are all initialized, until stdin
 * closes; used to measure the gateway's heap per idle session.
 */
public class LoadGen {
    private static final Pattern SESSION = Pattern.compile("(?i)mcp-session-id");
    /** The bearer credential every request presents, or null. */
    private static final String TOKEN = System.getenv("LOADGEN_TOKEN");
    /** Issue 11: the task context header sent at initialize, or null. */
    private static final String TASK_CONTEXT = System.getenv("LOADGEN_TASK_CONTEXT");
    /** Issue 11: a unique argument per call (a side-effecting gated tool would replay a repeated one). */
    private static final boolean UNIQUE_ARGS = "1".equals(System.getenv("LOADGEN_UNIQUE_ARGS"));

    /** Adds the bearer credential, when there is one. */
    static HttpRequest.Builder auth(HttpRequest.Builder b) {
        return TOKEN == null || TOKEN.isEmpty() ? b : b.header("Authorization", "Bearer " + TOKEN);
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "latency" -> latency(URI.create(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args[6]);
            case "sessions" -> sessions(URI.create(args[1]), Integer.parseInt(args[2]));
            case "jwt-issuer" -> jwtIssuer(java.nio.file.Path.of(args[1]), args[2], args[3], args[4]);
            default -> throw new IllegalArgumentException("latency | sessions | jwt-issuer");
        }
    }

    /** One MCP session over streamable HTTP: initialize, then POST calls; SSE answers are read to the result. */
    static final class Session {
        final HttpClient http;
        final URI url;
        String id;
        String version = "2025-06-18";
        long next = 1;
        final String nonce = Long.toHexString(new java.security.SecureRandom().nextLong());

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
            HttpRequest.Builder b = auth(HttpRequest.newBuilder(url)).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (id != null) {
                b.header("Mcp-Session-Id", id).header("MCP-Protocol-Version", version);
            } else if (TASK_CONTEXT != null && !TASK_CONTEXT.isEmpty()) {
                b.header("Cloakgate-Task-Context", TASK_CONTEXT);
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        void call(String tool) throws Exception {
            long n = next++;
            String text = UNIQUE_ARGS ? "ping-" + nonce + "-" + n : "ping";
            HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                    + tool + "\",\"arguments\":{\"text\":\"" + text + "\"}}}");
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
            HttpRequest del = auth(HttpRequest.newBuilder(url)).header("Mcp-Session-Id", s.id).DELETE().build();
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

    /** A throwaway JWT issuer: its JWKS to DIR/jwks.json, one signed token to stdout (JDK only: no build needed). */
    static void jwtIssuer(java.nio.file.Path dir, String issuer, String audience, String subject) throws Exception {
        java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        java.security.KeyPair keys = g.generateKeyPair();
        java.security.interfaces.RSAPublicKey pub = (java.security.interfaces.RSAPublicKey) keys.getPublic();
        java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
        String jwks = "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"bench\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\""
                + b64.encodeToString(unsigned(pub.getModulus())) + "\",\"e\":\"" + b64.encodeToString(unsigned(pub.getPublicExponent()))
                + "\"}]}";
        java.nio.file.Files.writeString(dir.resolve("jwks.json"), jwks);
        long now = System.currentTimeMillis() / 1000;
        String header = b64.encodeToString("{\"alg\":\"RS256\",\"kid\":\"bench\",\"typ\":\"JWT\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"iss\":\"" + issuer + "\",\"aud\":\"" + audience + "\",\"sub\":\"" + subject
                + "\",\"iat\":" + now + ",\"nbf\":" + (now - 60) + ",\"exp\":" + (now + 7200) + "}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.security.Signature rs256 = java.security.Signature.getInstance("SHA256withRSA");
        rs256.initSign(keys.getPrivate());
        rs256.update((header + "." + claims).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        System.out.println(header + "." + claims + "." + b64.encodeToString(rs256.sign()));
    }

    private static byte[] unsigned(java.math.BigInteger n) {
        byte[] b = n.toByteArray();
        return b.length > 1 && b[0] == 0 ? java.util.Arrays.copyOfRange(b, 1, b.length) : b;
    }
}
