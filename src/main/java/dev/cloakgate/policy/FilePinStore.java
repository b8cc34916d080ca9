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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@link PinStore} in a file: the hash of each tool's definition (name, title, description, inputSchema,
 * annotations) as first seen by a tenant, persisted in {@code {data-dir}/pins/{tenant}.json} with the definition itself, and the pending definition
 * of a tool whose definition changed: a rug pull until an operator accepts it ({@code pins accept}), the tool
 * quarantined meanwhile. The definitions are kept so an operator can see what changed ({@code pins diff}); the file
 * is the operator's, like the tenant files. Every read-modify-write holds a file lock, so the gateway and the admin
 * command can share the file; writes go to a temporary file, are forced to disk and renamed over the old one, so a
 * crash leaves the old file or the new one, never half of either.
 *
 * <p>Version 1 files pinned name, description and inputSchema only, without the definition: such a pin is carried
 * over (to the full hash, with the definition) when its tool is next seen with the same three parts.
 */
public final class FilePinStore implements PinStore, PinRules.Locked {
    private static final ObjectMapper M = new ObjectMapper();

    private final String tenant;
    private final Path file;
    private final Path lock;
    /** The pins as last read or written, and the file's modification time then: the fast path for SAME. */
    private Map<String, Pin> cache;
    private java.nio.file.attribute.FileTime cachedAt;

    public FilePinStore(Path dataDir, String tenant) {
        this.tenant = tenant;
        this.file = dataDir.resolve("pins").resolve(tenant + ".json");
        this.lock = dataDir.resolve("pins").resolve(tenant + ".lock");
    }

    public Path file() {
        return file;
    }

    @Override
    public String where() {
        return file.toString();
    }

    @Override
    public String tenant() {
        return tenant;
    }

    /** Compares (and on first sight pins) {@code upstream/tool} with the definition {@code seen}. */
    @Override
    public synchronized Check check(String upstream, String tool, Seen seen) throws IOException {
        String key = upstream + "/" + tool;
        String sha256 = seen.sha256();
        if (cache != null && java.util.Objects.equals(cachedAt, modified())) {
            Pin p = cache.get(key);
            if (p != null && p.sha256().equals(sha256) && p.pending() == null) {
                return Check.SAME; // a tools/list of N tools must not cost N locked reads
            }
        }
        return PinRules.check(this, key, seen);
    }

    /** The pin of {@code upstream/tool}, or null. */
    @Override
    public synchronized Pin pin(String key) throws IOException {
        return locked(pins -> new PinRules.Outcome<>(pins.get(key), false));
    }

    /**
     * Accepts each {@code upstream/tool -> pending hash} given, in one locked change: the definitions an operator
     * was shown, and no other (a tool whose pending definition changed since is left quarantined). Returns the tools
     * accepted.
     */
    @Override
    public synchronized java.util.Set<String> acceptAll(Map<String, String> reviewed) throws IOException {
        return PinRules.acceptAll(this, reviewed);
    }

    @Override
    public synchronized Map<String, Pin> all() throws IOException {
        return locked(pins -> new PinRules.Outcome<>(new LinkedHashMap<>(pins), false));
    }

    @Override
    public <T> T locked(PinRules.Change<T> change) throws IOException {
        Files.createDirectories(file.getParent());
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock l = ch.lock()) {
            Map<String, Pin> pins = read();
            PinRules.Outcome<T> o = change.apply(pins);
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
