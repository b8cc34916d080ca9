package dev.cloakgate.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.Messages;

/**
 * A small MCP streamable-HTTP client for tests: it speaks the real transport (POST with JSON or SSE answers,
 * the GET stream, Last-Event-ID, DELETE), answers server requests with a handler, and records everything it
 * received so a test can assert on it.
 */
public final class McpHttpClient implements McpTestClient {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** One received SSE event: its id and its message (null for a priming event). */
    public record Event(String id, ObjectNode message) {
    }

    private final URI url;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-mcp-client");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong ids = new AtomicLong();
    private final List<ObjectNode> notifications = new CopyOnWriteArrayList<>();
    private final List<ObjectNode> serverRequests = new CopyOnWriteArrayList<>();
    private final List<Event> events = new CopyOnWriteArrayList<>();
    private volatile Function<ObjectNode, JsonNode> answer = r -> F.objectNode();
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile Map<String, String> extraHeaders = Map.of();

    public McpHttpClient(URI url) {
        this.url = url;
    }

    /** A client that presents this bearer credential (a static token or a JWT) on every request. */
    public McpHttpClient(URI url, String bearerToken) {
        this.url = url;
        bearer(bearerToken);
    }

    /** Presents this bearer credential on every request from now on (issue 10). */
    public McpHttpClient bearer(String token) {
        Map<String, String> h = new java.util.LinkedHashMap<>(extraHeaders);
        h.put("Authorization", "Bearer " + token);
        this.extraHeaders = Map.copyOf(h);
        return this;
    }

    /** How server requests (sampling, elicitation, roots, ping) are answered: a result object, or an error. */
    public McpHttpClient answering(Function<ObjectNode, JsonNode> handler) {
        this.answer = handler;
        return this;
    }

    public McpHttpClient headers(Map<String, String> headers) {
        this.extraHeaders = Map.copyOf(headers);
        return this;
    }

    public String sessionId() {
        return sessionId;
    }

    @Override
    public ObjectNode initialize(String version, ObjectNode capabilities) {
        ObjectNode params = McpTestClient.initializeParams(version, capabilities);
        ObjectNode response = request("initialize", params);
        if (response.has("result")) {
            protocolVersion = response.path("result").path("protocolVersion").asText();
            notify("notifications/initialized", null);
        }
        return response;
    }

    @Override
    public ObjectNode request(String method, JsonNode params) {
        return requestAsync(method, params).join();
    }

    /** Sends a request; completes with its response, handling messages that arrive first on the stream. */
    public CompletableFuture<ObjectNode> requestAsync(String method, JsonNode params) {
        return requestWithId(F.numberNode(ids.incrementAndGet()), method, params);
    }

    public CompletableFuture<ObjectNode> requestWithId(JsonNode id, String method, JsonNode params) {
        ObjectNode m = Messages.request(id, method, params);
        return CompletableFuture.supplyAsync(() -> exchange(m), pool);
    }

    @Override
    public void notify(String method, JsonNode params) {
        ObjectNode m = Messages.notification(method, params);
        Raw r = post(Json.write(m));
        if (r.status() != 202) {
            throw new IllegalStateException("notification got HTTP " + r.status() + ": " + r.body());
        }
    }

    private ObjectNode exchange(ObjectNode m) {
        try {
            HttpResponse<InputStream> resp = http.send(builder().header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(Json.write(m))).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            resp.headers().firstValue("mcp-session-id").ifPresent(s -> {
                if (sessionId == null) {
                    sessionId = s;
                }
            });
            String type = resp.headers().firstValue("content-type").orElse("");
            if (type.startsWith("text/event-stream")) {
                ObjectNode[] result = new ObjectNode[1];
                readEvents(resp.body(), e -> {
                    if (e.message() != null && e.message().has("id") && !e.message().has("method")
                            && sameId(e.message().get("id"), m.get("id"))) {
                        result[0] = e.message();
                        return false;
                    }
                    return true;
                });
                // null when the stream ended without one (a cancelled request is owed none)
                return result[0];
            }
            String body = new String(resp.body().readAllBytes(), StandardCharsets.UTF_8);
            if (resp.statusCode() == 202) {
                return null;
            }
            ObjectNode parsed = (ObjectNode) Json.parse(body);
            return parsed;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean sameId(JsonNode a, JsonNode b) {
        return a.isNumber() == b.isNumber() && a.asText().equals(b.asText());
    }

    /** Reads SSE events, handling each message; stops when {@code more} returns false or the stream ends. */
    private void readEvents(InputStream in, Function<Event, Boolean> more) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String id = null;
            StringBuilder data = new StringBuilder();
            boolean hasData = false;
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty()) {
                    if (hasData || id != null) {
                        ObjectNode msg = data.length() == 0 ? null : (ObjectNode) Json.parse(data.toString());
                        Event e = new Event(id, msg);
                        events.add(e);
                        if (msg != null) {
                            handle(msg);
                        }
                        if (!more.apply(e)) {
                            return;
                        }
                    }
                    id = null;
                    data.setLength(0);
                    hasData = false;
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).trim();
                } else if (line.startsWith("data:")) {
                    if (hasData) {
                        data.append('\n');
                    }
                    data.append(line.substring(5).startsWith(" ") ? line.substring(6) : line.substring(5));
                    hasData = true;
                }
            }
        }
    }

    /** Server requests are answered; notifications recorded. */
    private void handle(ObjectNode msg) {
        if (msg.has("method") && msg.has("id")) {
            serverRequests.add(msg);
            JsonNode result = answer.apply(msg);
            ObjectNode reply = F.objectNode();
            reply.put("jsonrpc", "2.0");
            reply.set("id", msg.get("id"));
            if (result != null && result.has("code") && result.has("message") && result.size() <= 3) {
                reply.set("error", result);
            } else {
                reply.set("result", result == null ? F.objectNode() : result);
            }
            pool.submit(() -> post(Json.write(reply)));
        } else if (msg.has("method")) {
            notifications.add(msg);
        }
    }

    /** A GET stream being read in the background. */
    public final class GetStream implements AutoCloseable {
        private final CompletableFuture<Integer> status = new CompletableFuture<>();
        private final List<Event> received = new CopyOnWriteArrayList<>();
        private volatile InputStream body;
        private volatile boolean closed;

        public int status() {
            return status.join();
        }

        public List<Event> received() {
            return received;
        }

        /** Waits for an event whose message satisfies the test. */
        public Event await(java.util.function.Predicate<ObjectNode> test, Duration timeout) {
            long end = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < end) {
                for (Event e : received) {
                    if (e.message() != null && test.test(e.message())) {
                        return e;
                    }
                }
                sleep(20);
            }
            throw new AssertionError("no matching event on the GET stream within " + timeout + "; got " + received);
        }

        @Override
        public void close() {
            closed = true;
            InputStream b = body;
            if (b != null) {
                try {
                    b.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }

    /** Opens the GET stream (resuming after {@code lastEventId} when given); events are handled as they come. */
    public GetStream openGet(String lastEventId) {
        GetStream g = new GetStream();
        pool.submit(() -> {
            try {
                HttpRequest.Builder b = builder().header("Accept", "text/event-stream").timeout(Duration.ofDays(1)).GET();
                if (lastEventId != null) {
                    b.header("Last-Event-ID", lastEventId);
                }
                HttpResponse<InputStream> resp = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
                g.body = resp.body();
                g.status.complete(resp.statusCode());
                if (resp.statusCode() == 200) {
                    readEvents(resp.body(), e -> {
                        g.received.add(e);
                        return !g.closed;
                    });
                }
            } catch (Exception e) {
                if (!g.closed) {
                    g.status.completeExceptionally(e);
                }
            }
        });
        return g;
    }

    /** POSTs raw bytes with the session headers; for protocol-edge tests. */
    public Raw post(String body) {
        return send(builder().header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    public Raw send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Raw(r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public HttpRequest.Builder builder() {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60));
        if (sessionId != null) {
            b.header("Mcp-Session-Id", sessionId);
        }
        if (protocolVersion != null) {
            b.header("MCP-Protocol-Version", protocolVersion);
        }
        extraHeaders.forEach(b::header);
        return b;
    }

    /** An HTTP answer as received. */
    public record Raw(int status, String contentType, String body) {
        public JsonNode json() {
            return Json.parse(body);
        }
    }

    public int delete() {
        return send(builder().DELETE().build()).status();
    }

    @Override
    public List<ObjectNode> notifications() {
        return notifications;
    }

    public List<ObjectNode> serverRequests() {
        return serverRequests;
    }

    public List<Event> events() {
        return events;
    }

    /** Waits until a received notification satisfies the test, or fails after the timeout. */
    public ObjectNode awaitNotification(java.util.function.Predicate<ObjectNode> test, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (ObjectNode n : new ArrayList<>(notifications)) {
                if (test.test(n)) {
                    return n;
                }
            }
            sleep(20);
        }
        throw new AssertionError("no matching notification within " + timeout + "; got " + notifications);
    }

    static void sleep(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (sessionId != null) {
            try {
                delete();
            } catch (RuntimeException ignored) {
                // the server may be gone already
            }
        }
        pool.shutdownNow();
    }
}
