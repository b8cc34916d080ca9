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
 * The hash of each tool's definition (name, title, description, inputSchema, annotations) as first seen by a
 * tenant, persisted in {@code {data-dir}/pins/{tenant}.json} with the definition itself, and the pending definition
 * of a tool whose definition changed: a rug pull until an operator accepts it ({@code pins accept}), the tool
 * quarantined meanwhile. The definitions are kept so an operator can see what changed ({@code pins diff}); the file
 * is the operator's, like the tenant files. Every read-modify-write holds a file lock, so the gateway and the admin
 * command can share the file; writes go to a temporary file, are forced to disk and renamed over the old one, so a
 * crash leaves the old file or the new one, never half of either.
 *
 * <p>Version 1 files pinned name, description and inputSchema only, without the definition: such a pin is carried
 * over (to the full hash, with the definition) when its tool is next seen with the same three parts.
 */
public final class PinStore {
    private static final ObjectMapper M = new ObjectMapper();

    /** What a definition is compared with its pin. */
    public enum Check {
        PINNED_NOW, SAME, CHANGED
    }

    /**
     * A pinned tool. {@code definition}: what was pinned (null for a version 1 pin not seen since); {@code pending}
     * and {@code pendingDefinition}: the changed definition awaiting an operator, or null.
     */
    public record Pin(String tool, String sha256, String pinnedAt, String pending, JsonNode definition,
            JsonNode pendingDefinition) {
        public Pin(String tool, String sha256, String pinnedAt, String pending) {
            this(tool, sha256, pinnedAt, pending, null, null);
        }

        /** The upstream's name: the part before the first {@code /} of {@code upstream/tool}. */
        public String upstream() {
            return tool.substring(0, tool.indexOf('/'));
        }

        /** The tool's name as its upstream declares it. */
        public String name() {
            return tool.substring(tool.indexOf('/') + 1);
        }
    }

    /**
     * A definition as seen: its hash, the hash version 1 pinned it by (for carrying old pins over), and the
     * definition itself (what {@code pins diff} shows).
     */
    public record Seen(String sha256, String legacySha256, JsonNode definition) {
    }

    private final String tenant;
    private final Path file;
    private final Path lock;
    /** The pins as last read or written, and the file's modification time then: the fast path for SAME. */
    private Map<String, Pin> cache;
    private java.nio.file.attribute.FileTime cachedAt;

    public PinStore(Path dataDir, String tenant) {
        this.tenant = tenant;
        this.file = dataDir.resolve("pins").resolve(tenant + ".json");
        this.lock = dataDir.resolve("pins").resolve(tenant + ".lock");
    }

    public Path file() {
        return file;
    }

    public String tenant() {
        return tenant;
    }

    /** Compares (and on first sight pins) {@code upstream/tool} with {@code sha256}, no definition kept. */
    public Check check(String upstream, String tool, String sha256) throws IOException {
        return check(upstream, tool, new Seen(sha256, null, null));
    }

    /** Compares (and on first sight pins) {@code upstream/tool} with the definition {@code seen}. */
    public synchronized Check check(String upstream, String tool, Seen seen) throws IOException {
        String key = upstream + "/" + tool;
        String sha256 = seen.sha256();
        if (cache != null && java.util.Objects.equals(cachedAt, modified())) {
            Pin p = cache.get(key);
            if (p != null && p.sha256().equals(sha256) && p.pending() == null) {
                return Check.SAME; // a tools/list of N tools must not cost N locked reads
            }
        }
        return locked(pins -> {
            Pin p = pins.get(key);
            if (p == null) {
                pins.put(key, new Pin(key, sha256, Instant.now().toString(), null, seen.definition(), null));
                return new Outcome<>(Check.PINNED_NOW, true);
            }
            if (p.definition() == null && seen.legacySha256() != null && p.sha256().equals(seen.legacySha256())) {
                // a version 1 pin of the same name, description and inputSchema: carried over to the full hash
                pins.put(key, new Pin(key, sha256, p.pinnedAt(), null, seen.definition(), null));
                return new Outcome<>(Check.SAME, true);
            }
            if (p.sha256().equals(sha256)) {
                boolean dirty = p.pending() != null || p.definition() == null && seen.definition() != null;
                if (dirty) {
                    pins.put(key, new Pin(key, p.sha256(), p.pinnedAt(), null,
                            p.definition() != null ? p.definition() : seen.definition(), null));
                }
                return new Outcome<>(Check.SAME, dirty);
            }
            boolean dirty = !sha256.equals(p.pending());
            if (dirty) {
                pins.put(key, new Pin(key, p.sha256(), p.pinnedAt(), sha256, p.definition(), seen.definition()));
            }
            return new Outcome<>(Check.CHANGED, dirty);
        });
    }

    /** The pin of {@code upstream/tool}, or null. */
    public synchronized Pin pin(String key) throws IOException {
        return locked(pins -> new Outcome<>(pins.get(key), false));
    }

    /** Accepts {@code sha256} as the definition of {@code upstream/tool}; false when it is not the pending one. */
    public boolean accept(String key, String sha256) throws IOException {
        return acceptAll(Map.of(key, sha256)).contains(key);
    }

    /**
     * Accepts each {@code upstream/tool -> pending hash} given, in one locked change: the definitions an operator
     * was shown, and no other (a tool whose pending definition changed since is left quarantined). Returns the tools
     * accepted.
     */
    public synchronized java.util.Set<String> acceptAll(Map<String, String> reviewed) throws IOException {
        return locked(pins -> {
            java.util.Set<String> done = new java.util.LinkedHashSet<>();
            for (Map.Entry<String, String> r : reviewed.entrySet()) {
                Pin p = pins.get(r.getKey());
                if (p != null && p.pending() != null && p.pending().equals(r.getValue())) {
                    pins.put(r.getKey(), new Pin(r.getKey(), p.pending(), Instant.now().toString(), null,
                            p.pendingDefinition(), null));
                    done.add(r.getKey());
                }
            }
            return new Outcome<>(done, !done.isEmpty());
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
                    v.path("pending").isTextual() ? v.path("pending").asText() : null,
                    v.path("definition").isObject() ? v.get("definition") : null,
                    v.path("pending_definition").isObject() ? v.get("pending_definition") : null));
        }
        return pins;
    }

    private void write(Map<String, Pin> pins) throws IOException {
        ObjectNode root = M.createObjectNode();
        root.put("version", 2);
        ObjectNode tools = root.putObject("tools");
        for (Pin p : pins.values()) {
            ObjectNode o = tools.putObject(p.tool());
            o.put("sha256", p.sha256());
            o.put("pinned_at", p.pinnedAt());
            if (p.definition() != null) {
                o.set("definition", p.definition());
            }
            if (p.pending() != null) {
                o.put("pending", p.pending());
                if (p.pendingDefinition() != null) {
                    o.set("pending_definition", p.pendingDefinition());
                }
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
