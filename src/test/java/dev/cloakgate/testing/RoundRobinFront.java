package dev.cloakgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 17: a plain round-robin HTTP front, as a Kubernetes Service without session affinity: request n goes to
 * backend n mod N, whatever session it belongs to; a backend that refuses connections is skipped (the Service
 * drops an endpoint that is gone). Answers are streamed back as they arrive, so event streams pass through.
 */
public final class RoundRobinFront implements AutoCloseable {
    /** Not settable on the JDK client, or meaningful on one hop only. */
    private static final Set<String> SKIPPED = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "keep-alive", "transfer-encoding", "te", "trailer", "http2-settings", "date");

    private final HttpServer server;
    private final List<URI> backends;
    private final AtomicInteger next = new AtomicInteger();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "round-robin-front");
        t.setDaemon(true);
        return t;
    });
    /** Which backend each request was sent to, in order. */
    private final List<Integer> landed = Collections.synchronizedList(new ArrayList<>());

    public RoundRobinFront(List<URI> backends) throws IOException {
        this.backends = List.copyOf(backends);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    public URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** The backend index of every request sent so far. */
    public List<Integer> landed() {
        synchronized (landed) {
            return List.copyOf(landed);
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body = ex.getRequestBody().readAllBytes();
            int start = next.getAndIncrement();
            HttpResponse<InputStream> answer = null;
            for (int k = 0; k < backends.size() && answer == null; k++) {
                int i = Math.floorMod(start + k, backends.size());
                HttpRequest.Builder b = HttpRequest.newBuilder(backends.get(i).resolve(ex.getRequestURI().toString()))
                        .method(ex.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body))
                        .timeout(Duration.ofSeconds(120));
                for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
                    if (!SKIPPED.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                        h.getValue().forEach(v -> b.header(h.getKey(), v));
                    }
                }
                try {
                    answer = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
                    landed.add(i);
                } catch (HttpTimeoutException e) {
                    ex.sendResponseHeaders(504, -1);
                    return;
                } catch (IOException e) {
                    // this backend is gone (refused, or a kept-alive connection to it reset): the next one takes it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (answer == null) {
                ex.sendResponseHeaders(502, -1);
                return;
            }
            answer.headers().map().forEach((k, v) -> {
                if (!k.startsWith(":") && !SKIPPED.contains(k.toLowerCase(Locale.ROOT))) {
                    ex.getResponseHeaders().put(k, v);
                }
            });
            long length = answer.headers().firstValueAsLong("Content-Length").orElse(-1);
            ex.sendResponseHeaders(answer.statusCode(), length == 0 ? -1 : length < 0 ? 0 : length);
            try (InputStream in = answer.body(); OutputStream out = ex.getResponseBody()) {
                byte[] buf = new byte[8192];
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush(); // an event goes out as it came in
                }
            } catch (IOException e) {
                // either side went away: both are closed here
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
