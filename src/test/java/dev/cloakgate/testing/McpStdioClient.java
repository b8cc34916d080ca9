package dev.cloakgate.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.Messages;

/** Talks to an MCP server over stdio directly, as the baseline a transparent gateway must match. */
public final class McpStdioClient implements McpTestClient {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final Process process;
    private final OutputStream stdin;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<ObjectNode>> pending = new ConcurrentHashMap<>();
    private final List<ObjectNode> notifications = new CopyOnWriteArrayList<>();

    public McpStdioClient(List<String> command, Path cwd) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
            if (cwd != null) {
                pb.directory(cwd.toFile());
            }
            process = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        stdin = process.getOutputStream();
        Thread reader = new Thread(this::read, "test-stdio-client");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                ObjectNode m = (ObjectNode) Json.parse(line);
                if (m.has("method") && m.has("id")) {
                    ObjectNode reply = F.objectNode();
                    reply.put("jsonrpc", "2.0");
                    reply.set("id", m.get("id"));
                    reply.set("result", F.objectNode());
                    write(reply);
                } else if (m.has("method")) {
                    notifications.add(m);
                } else {
                    CompletableFuture<ObjectNode> f = pending.remove(m.path("id").asLong());
                    if (f != null) {
                        f.complete(m);
                    }
                }
            }
        } catch (IOException ignored) {
            // process ended
        }
    }

    private synchronized void write(ObjectNode m) {
        try {
            stdin.write((Json.write(m) + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public ObjectNode initialize(String version, ObjectNode capabilities) {
        ObjectNode params = McpTestClient.initializeParams(version, capabilities);
        ObjectNode r = request("initialize", params);
        notify("notifications/initialized", null);
        return r;
    }

    @Override
    public ObjectNode request(String method, JsonNode params) {
        long id = ids.incrementAndGet();
        CompletableFuture<ObjectNode> f = new CompletableFuture<>();
        pending.put(id, f);
        write(Messages.request(F.numberNode(id), method, params));
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("no answer to " + method, e);
        }
    }

    @Override
    public void notify(String method, JsonNode params) {
        ObjectNode m = Messages.notification(method, params);
        write(m);
    }

    @Override
    public List<ObjectNode> notifications() {
        return notifications;
    }

    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already closed
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }
}
