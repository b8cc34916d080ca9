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
    private final int managementPort;

    private GatewayProcess(Process process, Path log, int port, int managementPort) {
        this.process = process;
        this.log = log;
        this.port = port;
        this.managementPort = managementPort;
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

    /** Starts the gateway on a free port, its management interface (health, metrics) on another (not waiting for it). */
    public static GatewayProcess start(List<String> props) throws IOException {
        return start(props, NodeFixtures.freePort());
    }

    /** Issue 16: as {@link #start(List)} on a port chosen beforehand (a public URL that names it). */
    public static GatewayProcess start(List<String> props, int port) throws IOException {
        int management = NodeFixtures.freePort();
        List<String> all = new ArrayList<>(props);
        all.add("-Dquarkus.http.port=" + port);
        all.add("-Dquarkus.management.port=" + management);
        List<String> cmd = command(all);
        Path out = Files.createTempFile("cloakgate-gw-", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        return new GatewayProcess(p, out, port, management);
    }

    // --- issue 10, operations: the README's own command lines, run as written ---

    /**
     * A command line as the README writes it ({@code java [-D...] -jar target/quarkus-app/quarkus-run.jar ARGS}), run
     * in {@code cwd} with this JVM's java and the jar under test, nothing added: the settings are the line's own.
     */
    public static Result runAsWritten(Path cwd, String line) throws IOException, InterruptedException {
        Path out = Files.createTempFile("cloakgate-run-", ".log");
        Process p = new ProcessBuilder(asWritten(line, List.of())).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("command did not finish: " + line + "\n" + Files.readString(out));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    /** The gateway started by a README command line in {@code cwd}, on free ports instead of 8080 and 9000. */
    public static GatewayProcess startAsWritten(Path cwd, String line) throws IOException {
        int port = NodeFixtures.freePort();
        int management = NodeFixtures.freePort();
        List<String> cmd = asWritten(line, List.of("-Dquarkus.http.port=" + port, "-Dquarkus.management.port=" + management));
        Path out = Files.createTempFile("cloakgate-gw-", ".log");
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).redirectOutput(out.toFile())
                .start();
        return new GatewayProcess(p, out, port, management);
    }

    private static List<String> asWritten(String line, List<String> ports) {
        List<String> words = new ArrayList<>(List.of(line.trim().split("\\s+")));
        if (!words.get(0).equals("java") || !words.contains("target/quarkus-app/quarkus-run.jar")) {
            throw new IllegalArgumentException("not a command line that runs the packaged jar: " + line);
        }
        words.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        int jar = words.indexOf("target/quarkus-app/quarkus-run.jar");
        words.set(jar, jar().toAbsolutePath().toString());
        words.addAll(1, ports);
        return words;
    }

    // --- end operations ---

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

    /** Waits until /q/health/ready (on the management port) answers 200, or the process exits. */
    public boolean awaitReady(Duration timeout) {
        HttpClient http = HttpClient.newHttpClient();
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end && process.isAlive()) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(managementUrl("/q/health/ready")).build(),
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

    /** On the port agents reach. */
    public URI url(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** On the management interface: health and metrics. */
    public URI managementUrl(String path) {
        return URI.create("http://127.0.0.1:" + managementPort + path);
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
