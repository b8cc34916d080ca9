package dev.cloakgate.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The packaged gateway ({@code target/quarkus-app/quarkus-run.jar}) run as a real process. */
public final class GatewayProcess implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final int port;

    private GatewayProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    public static Path jar() {
        Path jar = Path.of(System.getProperty("cloakgate.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " missing: run ./mvnw package first (failsafe runs after it)");
        }
        return jar;
    }

    /** Runs the jar with arguments to completion (for commands such as --check). */
    public static Result run(List<String> props, String... args) throws IOException, InterruptedException {
        List<String> cmd = command(props);
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("cloakgate-run-", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("gateway command did not finish: " + Files.readString(out));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    /** Starts the gateway on a free port (not waiting for it). */
    public static GatewayProcess start(List<String> props) throws IOException {
        int port = NodeFixtures.freePort();
        List<String> all = new ArrayList<>(props);
        all.add("-Dquarkus.http.port=" + port);
        List<String> cmd = command(all);
        Path out = Files.createTempFile("cloakgate-gw-", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        return new GatewayProcess(p, out, port);
    }

    private static List<String> command(List<String> props) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(props);
        // state goes to a fresh folder, never the working copy's data/, and checkpoints are signed with a dev key,
        // unless the test says otherwise
        if (props.stream().noneMatch(p -> p.startsWith("-Dcloakgate.data-dir="))) {
            try {
                cmd.add("-Dcloakgate.data-dir=" + Files.createTempDirectory("cloakgate-data-"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        if (props.stream().noneMatch(p -> p.startsWith("-Dcloakgate.ledger."))) {
            cmd.add("-Dcloakgate.ledger.dev-key=true");
        }
        cmd.add("-jar");
        cmd.add(jar().toString());
        return cmd;
    }

    /** Waits until /q/health/ready answers 200, or the process exits. */
    public boolean awaitReady(Duration timeout) {
        HttpClient http = HttpClient.newHttpClient();
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end && process.isAlive()) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url("/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return true;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            McpHttpClient.sleep(100);
        }
        return false;
    }

    public URI url(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public Process process() {
        return process;
    }

    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Waits for the process to end by itself; its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("gateway did not exit; log:\n" + log());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A finished command. */
    public record Result(int exit, String output) {
    }
}
