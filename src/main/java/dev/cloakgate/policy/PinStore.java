package dev.cloakgate.policy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The hash of each tool's definition (name, description, inputSchema) as first seen by a tenant, persisted in
 * {@code {data-dir}/pins/{tenant}.json}. A later definition with another hash is a rug pull until an operator
 * accepts it ({@code pins accept}): the tool stays quarantined. Every read-modify-write holds a file lock, so the
 * gateway and the admin command can share the file; writes go to a temporary file, are forced to disk and
 * renamed over the old one, so a crash leaves the old file or the new one, never half of either.
 */
public final class PinStore {
    private static final ObjectMapper M = new ObjectMapper();

    /** What a definition is compared with its pin. */
    public enum Check {
        PINNED_NOW, SAME, CHANGED
    }

    public record Pin(String tool, String sha256, String pinnedAt, String pending) {
    }

    private final Path file;
    private final Path lock;
    /** The pins as last read or written, and the file's modification time then: the fast path for SAME. */
    private Map<String, Pin> cache;
    private java.nio.file.attribute.FileTime cachedAt;

    public PinStore(Path dataDir, String tenant) {
        this.file = dataDir.resolve("pins").resolve(tenant + ".json");
        this.lock = dataDir.resolve("pins").resolve(tenant + ".lock");
    }

    public Path file() {
        return file;
    }

    /** Compares (and on first sight pins) {@code upstream/tool} with {@code sha256}. */
    public synchronized Check check(String upstream, String tool, String sha256) throws IOException {
        String key = upstream + "/" + tool;
        if (cache != null && java.util.Objects.equals(cachedAt, modified())) {
            Pin p = cache.get(key);
            if (p != null && p.sha256().equals(sha256) && p.pending() == null) {
                return Check.SAME; // a tools/list of N tools must not cost N locked reads
            }
        }
        return locked(pins -> {
            Pin p = pins.get(key);
            if (p == null) {
                pins.put(key, new Pin(key, sha256, Instant.now().toString(), null));
                return new Outcome<>(Check.PINNED_NOW, true);
            }
            if (p.sha256().equals(sha256)) {
                boolean dirty = p.pending() != null;
                if (dirty) {
                    pins.put(key, new Pin(key, p.sha256(), p.pinnedAt(), null));
                }
                return new Outcome<>(Check.SAME, dirty);
            }
            boolean dirty = !sha256.equals(p.pending());
            if (dirty) {
                pins.put(key, new Pin(key, p.sha256(), p.pinnedAt(), sha256));
            }
            return new Outcome<>(Check.CHANGED, dirty);
        });
    }

    /** Accepts {@code sha256} as the definition of {@code upstream/tool}; false when it is not the pending one. */
    public synchronized boolean accept(String key, String sha256) throws IOException {
        return locked(pins -> {
            Pin p = pins.get(key);
            if (p == null || p.pending() == null || !p.pending().equals(sha256)) {
                return new Outcome<>(false, false);
            }
            pins.put(key, new Pin(key, sha256, Instant.now().toString(), null));
            return new Outcome<>(true, true);
        });
    }

    public synchronized Map<String, Pin> all() throws IOException {
        return locked(pins -> new Outcome<>(new LinkedHashMap<>(pins), false));
    }

    private record Outcome<T>(T value, boolean write) {
    }

    private interface Change<T> {
        Outcome<T> apply(Map<String, Pin> pins) throws IOException;
    }

    private <T> T locked(Change<T> change) throws IOException {
        Files.createDirectories(file.getParent());
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock l = ch.lock()) {
            Map<String, Pin> pins = read();
            Outcome<T> o = change.apply(pins);
            if (o.write()) {
                write(pins);
            }
            cache = new LinkedHashMap<>(pins);
            cachedAt = modified();
            return o.value();
        }
    }

    private java.nio.file.attribute.FileTime modified() {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return null;
        }
    }

    private Map<String, Pin> read() throws IOException {
        Map<String, Pin> pins = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return pins;
        }
        JsonNode root;
        try {
            root = M.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            // refuse rather than start over: starting over would pin a rug-pulled definition as the original
            throw new IOException("pin file " + file + " is unreadable (" + e.getClass().getSimpleName()
                    + "); restore it from backup or remove it to pin every tool afresh", e);
        }
        Iterator<Map.Entry<String, JsonNode>> it = root.path("tools").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            pins.put(e.getKey(), new Pin(e.getKey(), v.path("sha256").asText(), v.path("pinned_at").asText(),
                    v.path("pending").isTextual() ? v.path("pending").asText() : null));
        }
        return pins;
    }

    private void write(Map<String, Pin> pins) throws IOException {
        ObjectNode root = M.createObjectNode();
        root.put("version", 1);
        ObjectNode tools = root.putObject("tools");
        for (Pin p : pins.values()) {
            ObjectNode o = tools.putObject(p.tool());
            o.put("sha256", p.sha256());
            o.put("pinned_at", p.pinnedAt());
            if (p.pending() != null) {
                o.put("pending", p.pending());
            }
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        byte[] bytes = M.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
