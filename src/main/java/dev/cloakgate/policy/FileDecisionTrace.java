package dev.cloakgate.policy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.store.OwnerOnly;

/**
 * Appends decisions to {@code {data-dir}/trace/{tenant}.jsonl} from one background thread, so a tool call only
 * pays for putting a record on a bounded queue. When the queue is full (the disk stalls) records are dropped and
 * counted rather than holding calls back; the evidence ledger, not this trace, is the record that must not lose
 * entries.
 */
public final class FileDecisionTrace implements DecisionTrace {
    private static final Logger LOG = Logger.getLogger(FileDecisionTrace.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Put on the queue by close: everything before it is written, then the writer ends. */
    private static final Entry STOP = new Entry(null, null, null, null, null, null, 0, 0, null);

    private final Path file;
    private final BlockingQueue<Entry> queue = new ArrayBlockingQueue<>(10_000);
    private final AtomicLong dropped = new AtomicLong();
    private final Thread writer;
    private volatile boolean closing;

    public FileDecisionTrace(Path dataDir, String tenant) throws IOException {
        this.file = dataDir.resolve("trace").resolve(tenant + ".jsonl");
        // owner-only, as the ledger: decisions name principals, tools and controls
        OwnerOnly.directories(file.getParent());
        OwnerOnly.file(file);
        this.writer = new Thread(this::drain, "cloakgate-trace-" + tenant);
        writer.setDaemon(true);
        writer.start();
    }

    public Path file() {
        return file;
    }

    public long dropped() {
        return dropped.get();
    }

    @Override
    public void record(Entry e) {
        if (closing || !queue.offer(e)) {
            if (dropped.getAndIncrement() == 0) {
                LOG.warnf("decision trace %s: queue full or closed, dropping records (counted)", file);
            }
        }
    }

    private void drain() {
        List<Entry> batch = new ArrayList<>();
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            boolean stop = false;
            while (!stop) {
                batch.add(queue.take());
                queue.drainTo(batch, 511);
                for (Entry e : batch) {
                    if (e == STOP) {
                        stop = true;
                        break;
                    }
                    w.write(line(e));
                    w.write('\n');
                }
                w.flush();
                batch.clear();
            }
        } catch (IOException e) {
            LOG.errorf("decision trace %s: cannot write (%s); further decisions are not traced", file,
                    e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String line(Entry e) {
        ObjectNode o = F.objectNode();
        o.put("ts", Instant.now().toString());
        o.put("tenant", e.tenant());
        o.put("session", e.session());
        o.put("stage", e.stage().code());
        o.put("upstream", e.upstream());
        o.put("tool", e.tool());
        o.put("action", e.decision().action().code());
        String reason = e.decision().reason();
        if (reason != null) {
            o.put("reason", reason);
        }
        if (e.decision() instanceof Decision.RequireApproval r) {
            o.put("fingerprint", r.fingerprint());
        }
        ArrayNode controls = o.putArray("controls");
        e.decision().controls().forEach(controls::add);
        ArrayNode findings = o.putArray("findings");
        for (Finding f : e.decision().findings()) {
            ObjectNode fo = findings.addObject();
            fo.put("control", f.control());
            fo.put("action", f.action().code());
            fo.put("reason", f.reason());
            fo.put("detail", f.detail());
            if (f.demoted()) {
                fo.put("demoted", true);
            }
        }
        o.put("micros", e.micros());
        ObjectNode p = o.putObject("payload");
        p.put("bytes", e.payloadBytes());
        p.put("hmac_sha256", e.payloadHmac());
        return o.toString();
    }

    @Override
    public void close() {
        closing = true;
        try {
            queue.offer(STOP, 5, java.util.concurrent.TimeUnit.SECONDS); // a dead writer must not hold shutdown
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
