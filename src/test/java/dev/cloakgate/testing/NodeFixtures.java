package dev.cloakgate.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real MCP servers tests run against, installed by {@code npm ci} in {@code src/test/node}: paths to their
 * entry points and helpers to start the HTTP ones on free ports.
 */
public final class NodeFixtures {
    public static final Path DIR = Path.of("src/test/node").toAbsolutePath();
    public static final Path MODULES = DIR.resolve("node_modules");
    public static final Path FILESYSTEM = MODULES.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
    public static final Path EVERYTHING = MODULES.resolve("@modelcontextprotocol/server-everything/dist/index.js");
    public static final Path MEMORY = MODULES.resolve("@modelcontextprotocol/server-memory/dist/index.js");
    public static final Path PROBE = DIR.resolve("probe-server.mjs");
    public static final Path CONFORMANCE = DIR.resolve("conformance-server.mjs");
    public static final Path FIXED_VERSION = DIR.resolve("fixed-version-server.mjs");
    public static final Path LEAK_PROBE = DIR.resolve("leak-probe-server.mjs");
    public static final Path HOSTILE = DIR.resolve("hostile-server.mjs");
    public static final Path POLICY = DIR.resolve("policy-server.mjs");
    public static final Path INDEPENDENT_CLIENT = DIR.resolve("independent-client.mjs");
    public static final Path RUN_CONFORMANCE = DIR.resolve("run-conformance.mjs");
    /** Issue 10, legacy upstreams: an HTTP+SSE (2024-11-05) server that records the headers it receives. */
    public static final Path LEGACY_SSE = DIR.resolve("legacy-sse-server.mjs");

    private NodeFixtures() {
    }

    /** Fails early, with the fix, when the fixtures were not installed. */
    public static void requireInstalled() {
        if (!Files.isRegularFile(FILESYSTEM)) {
            throw new IllegalStateException("Node fixtures missing: run `npm ci --prefix src/test/node` (see README)");
        }
    }

    /** A running HTTP MCP server; closing it kills the process tree. */
    public record HttpServer(Process process, int port) implements AutoCloseable {
        public URI url() {
            return URI.create("http://127.0.0.1:" + port + "/mcp");
        }

        @Override
        public void close() {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process.destroyForcibly();
        }
    }

    /** Starts one of the project's servers that prints {@code LISTENING <port>} (probe, conformance). */
    public static HttpServer startListening(Path script, String... extra) {
        requireInstalled();
        List<String> cmd = new ArrayList<>(List.of("node", script.toString(), "http", "0"));
        cmd.addAll(List.of(extra));
        try {
            Process p = new ProcessBuilder(cmd).directory(DIR.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
                try {
                    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                    String line;
                    while ((line = r.readLine()) != null) {
                        if (line.startsWith("LISTENING ")) {
                            return Integer.parseInt(line.substring(10).trim());
                        }
                    }
                    throw new IllegalStateException(script + " exited before listening");
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            return new HttpServer(p, port.get(30, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new IllegalStateException("could not start " + script, e);
        }
    }

    /** Starts {@code @modelcontextprotocol/server-everything} in streamable-HTTP mode on a free port. */
    public static HttpServer startEverything() {
        return everything("streamableHttp", freePort());
    }

    /**
     * Issue 10, legacy upstreams: {@code server-everything} over the HTTP+SSE transport of 2024-11-05 on
     * {@code port} (its stream at {@code /sse}).
     */
    public static HttpServer startEverythingSse(int port) {
        return everything("sse", port);
    }

    private static HttpServer everything(String transport, int port) {
        requireInstalled();
        try {
            ProcessBuilder pb = new ProcessBuilder("node", EVERYTHING.toString(), transport)
                    .directory(DIR.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("PORT", String.valueOf(port));
            Process p = pb.start();
            awaitPort(port, Duration.ofSeconds(30));
            return new HttpServer(p, port);
        } catch (IOException e) {
            throw new IllegalStateException("could not start server-everything (" + transport + ")", e);
        }
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void awaitPort(int port, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                McpHttpClient.sleep(50);
            }
        }
        throw new IllegalStateException("nothing listening on port " + port + " after " + timeout);
    }

    /** Runs a Node program to completion; returns exit code and stdout. */
    public static Map.Entry<Integer, String> run(Duration timeout, String... args) {
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add("node");
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).directory(DIR.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("node " + String.join(" ", args) + " did not finish in " + timeout);
            }
            return Map.entry(p.exitValue(), out.get(5, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
