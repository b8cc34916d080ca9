package dev.cloakgate.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.tenant.UpstreamConfig;

/**
 * An upstream spawned as a child process: newline-delimited JSON-RPC on stdin/stdout. A stdio server serves
 * one client, so each gateway session gets its own child. What is spawned comes only from the tenant file.
 */
public final class StdioLink implements UpstreamLink {
    private static final Logger LOG = Logger.getLogger(StdioLink.class);
    /** Variables a child inherits from the gateway; everything else (keys, tokens) stays behind. */
    private static final List<String> INHERITED = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
            "LC_ALL", "TZ", "TMPDIR", "NODE_EXTRA_CA_CERTS", "SystemRoot");

    private final UpstreamConfig.Stdio config;
    private final String label;
    private final JsonCodec codec;
    private final Inbound inbound;
    private final Executor writer;
    private final MessageLanes lanes;
    private final PendingTable pending = new PendingTable();
    private final Oversized oversized;
    private final CompletableFuture<UpstreamException> closed = new CompletableFuture<>();
    private volatile Process process;
    private volatile OutputStream stdin;
    private volatile boolean closing;
    private final StderrHead stderr = new StderrHead();
    /** Completes when the child's stderr ended (read to its end). */
    private final CompletableFuture<Void> stderrDone = new CompletableFuture<>();

    /**
     * @param writer runs writes to the child one at a time, never on the caller's thread (a child that stops
     *        reading must not stall the gateway's event loop)
     * @param limit the largest line accepted; a longer one is skipped as it is read
     * @param lanes where large lines are handled; smaller ones are handled on this link's reader thread
     */
    public StdioLink(UpstreamConfig.Stdio config, String label, JsonCodec codec, Inbound inbound, Executor writer,
            MessageLimit limit, MessageLanes lanes) {
        this.config = config;
        this.label = label;
        this.codec = codec;
        this.inbound = inbound;
        this.writer = writer;
        this.lanes = lanes;
        this.oversized = new Oversized(config.name(), label, limit, pending, this::send);
    }

    @Override
    public CompletableFuture<Void> open() {
        List<String> cmd = new ArrayList<>();
        cmd.add(config.command());
        cmd.addAll(config.args());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        Map<String, String> parent = Map.copyOf(env);
        env.clear();
        for (String k : INHERITED) {
            String v = parent.get(k);
            if (v != null) {
                env.put(k, v);
            }
        }
        env.putAll(config.env());
        if (config.cwd() != null) {
            pb.directory(config.cwd().toFile());
        }
        try {
            process = pb.start();
        } catch (IOException e) {
            UpstreamException x = new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                    "could not be started: " + e.getMessage());
            closed.complete(x);
            return CompletableFuture.failedFuture(x);
        }
        stdin = process.getOutputStream();
        LOG.debugf("upstream %s: started pid %d", label, process.pid());
        thread("out", this::readStdout).start();
        thread("err", this::drainStderr).start();
        process.onExit().thenCompose(this::exited).thenAccept(this::shutDown);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Pending request(String method, JsonNode params, RequestObserver related) {
        // stdio carries no request association: related messages arrive through Inbound
        PendingTable.Entry e = pending.open(null);
        if (closed.isDone()) {
            e.response().completeExceptionally(closed.join());
        } else {
            write(Messages.request(com.fasterxml.jackson.databind.node.LongNode.valueOf(e.id()), method, params), e.sent());
        }
        return e.pending();
    }

    @Override
    public void send(ObjectNode message) {
        if (!closed.isDone()) {
            write(message, null);
        }
    }

    @Override
    public void initialized(String protocolVersion) {
        // nothing to do: stdio has no per-version transport behaviour
    }

    @Override
    public CompletableFuture<UpstreamException> closed() {
        return closed;
    }

    @Override
    public void close() {
        closing = true;
        Process p = process;
        if (p == null) {
            closed.complete(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_EXITED, "was closed"));
            return;
        }
        // closing stdin is the polite stop for a stdio server; npx-style launchers leave grandchildren, end those too
        writer.execute(() -> {
            try {
                stdin.close();
            } catch (IOException ignored) {
                // already gone
            }
        });
        p.onExit().orTimeout(2, TimeUnit.SECONDS).whenComplete((x, t) -> {
            if (t != null) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                p.onExit().orTimeout(2, TimeUnit.SECONDS).whenComplete((y, u) -> {
                    if (u != null) {
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                    }
                });
            } else {
                p.descendants().forEach(ProcessHandle::destroy);
            }
        });
    }

    /** The child's process id, for diagnostics and tests. */
    public long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    /** Writes one line; {@code sent} (may be null) completes once it was flushed to the child. */
    private void write(ObjectNode message, CompletableFuture<Void> sent) {
        byte[] bytes = codec.toBytes(message);
        writer.execute(() -> {
            if (closed.isDone()) {
                return;
            }
            try {
                OutputStream out = stdin;
                out.write(bytes);
                out.write('\n');
                out.flush();
                if (sent != null) {
                    sent.complete(null);
                }
            } catch (IOException e) {
                shutDown(new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_EXITED,
                        "stopped reading its input"));
            }
        });
    }

    private void readStdout() {
        // an overlong line is judged while it streams past: the call it answers is failed as soon as its id is seen
        LineReader lines = new LineReader(process.getInputStream(), oversized.limit().bytes(), oversized::handle);
        try {
            while (true) {
                byte[] line;
                try {
                    line = lines.next();
                } catch (LineReader.LineTooLong e) {
                    oversized.handle(e.scan());
                    continue;
                }
                if (line == null) {
                    break;
                }
                int n = lines.length();
                if (n == 0 || blank(line, n)) {
                    continue;
                }
                if (lanes.large(n)) {
                    // this reader waits meanwhile: the line stays untouched, and the child's next lines wait in its pipe
                    lanes.runLarge(() -> handle(line, n));
                } else {
                    handle(line, n);
                }
            }
        } catch (IOException e) {
            LOG.debugf("upstream %s: stdout read ended: %s", label, e.getClass().getSimpleName());
        }
        Process p = process;
        // stdout closed: the process is ending; wait briefly so the exit status lands in the reason
        p.onExit().completeOnTimeout(p, 500, TimeUnit.MILLISECONDS).thenCompose(this::exited).thenAccept(this::shutDown);
    }

    /**
     * Why the child is gone: its exit status, with the head of its stderr for the operator's log (waiting briefly
     * for the last of it: the pipe is read on its own thread).
     */
    private CompletableFuture<UpstreamException> exited(Process p) {
        if (closing) {
            return CompletableFuture.completedFuture(new UpstreamException(config.name(),
                    UpstreamException.Reason.UPSTREAM_EXITED, "was closed"));
        }
        return stderrDone.completeOnTimeout(null, 500, TimeUnit.MILLISECONDS).thenApply(v -> new UpstreamException(
                config.name(), UpstreamException.Reason.UPSTREAM_EXITED, p.isAlive() ? "closed its output"
                        : "exited (status " + p.exitValue() + ")").withDiagnostic(stderr.text()));
    }

    /** Parses one line and passes it on: the response completes its call, whose judging and cloaking run here. */
    private void handle(byte[] line, int n) {
        JsonNode msg;
        try {
            msg = codec.parse(line, 0, n);
        } catch (JsonCodec.MalformedJson e) {
            // some servers print logs to stdout; never log the line itself, it can carry data
            LOG.debugf("upstream %s: ignored a non-JSON-RPC line of %d bytes (%s)", label, n, e.getMessage());
            return;
        }
        try {
            pending.dispatch(msg, label, inbound::onMessage);
        } catch (RuntimeException e) {
            // a failure downstream of one message must not end the reader
            LOG.warnf("upstream %s: handling a message failed (%s)", label, e.getClass().getSimpleName());
        }
    }

    private void drainStderr() {
        // stderr can carry data (paths, records): only its head is kept, for the log of a child that cannot start
        try (InputStream err = process.getErrorStream()) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = err.read(buf)) > 0) {
                stderr.feed(buf, n);
            }
        } catch (IOException ignored) {
            // the process is gone
        } finally {
            stderrDone.complete(null);
        }
    }

    private void shutDown(UpstreamException why) {
        if (closed.complete(why)) {
            pending.failAll(why);
            Process p = process;
            if (p != null && p.isAlive() && !closing) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            inbound.onClosed(why);
        }
    }

    private Thread thread(String stream, Runnable body) {
        Thread t = new Thread(body, "cloakgate-stdio-" + label + "-" + stream);
        t.setDaemon(true);
        return t;
    }

    private static boolean blank(byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }
}
