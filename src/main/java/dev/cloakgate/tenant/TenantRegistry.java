package dev.cloakgate.tenant;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every tenant of this gateway, loaded from one JSON file each. A bad file stops the load at start, and every
 * problem of every file is named. While the gateway runs, reloads of the files swap configurations in ({@link TenantReloader}): each read
 * sees one whole configuration, the one new sessions get, and the registry keeps each tenant's
 * {@link TenantStatus}.
 */
public final class TenantRegistry {
    /** The tenants taking new sessions: an unmodifiable snapshot, replaced whole on each change. */
    private volatile Map<String, TenantConfig> tenants;
    /** The last configuration each tenant accepted, including a tenant whose file was removed since. */
    private final Map<String, TenantConfig> last = new ConcurrentHashMap<>();
    private final Map<String, TenantStatus> status = new ConcurrentHashMap<>();

    private TenantRegistry(Map<String, TenantConfig> tenants, Map<String, String> files, Instant at) {
        this.tenants = Collections.unmodifiableMap(new TreeMap<>(tenants));
        last.putAll(tenants);
        tenants.forEach((name, c) -> status.put(name, TenantStatus.loaded(name, files.get(name), c.digest(), at)));
    }

    public static TenantRegistry of(TenantConfig... configs) {
        Map<String, TenantConfig> m = new TreeMap<>();
        Map<String, String> files = new TreeMap<>();
        for (TenantConfig c : configs) {
            m.put(c.name(), c);
            files.put(c.name(), c.name() + ".json");
        }
        return new TenantRegistry(m, files, Instant.now());
    }

    /**
     * Loads every {@code *.json} in {@code dir}. Fails, reporting every problem of every file, when one cannot be
     * used; an empty or missing directory is an error too, since a gateway with no tenant serves nothing.
     */
    public static TenantRegistry load(Path dir, TenantParser parser) throws TenantConfigException {
        Read read = read(dir, parser);
        if (!read.problems().isEmpty()) {
            throw new TenantConfigException(read.problems());
        }
        return read.valid();
    }

    /** Every file of a directory read: the tenants that are valid, and every problem of the others. */
    public record Read(TenantRegistry valid, List<TenantConfigException.Problem> problems) {
    }

    /**
     * Reads every {@code *.json} in {@code dir}, going on past a bad file ({@code --check} reports them all).
     *
     * @throws TenantConfigException when the directory itself cannot be used
     */
    public static Read read(Path dir, TenantParser parser) throws TenantConfigException {
        if (!Files.isDirectory(dir)) {
            throw new TenantConfigException(dir.toString(), "$", "tenants directory does not exist");
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, TenantRegistry::tenantFile)) {
            ds.forEach(files::add);
        } catch (IOException e) {
            throw new TenantConfigException(dir.toString(), "$", "cannot list tenants directory: " + e.getMessage());
        }
        Collections.sort(files);
        if (files.isEmpty()) {
            throw new TenantConfigException(dir.toString(), "$", "no tenant files (*.json) found");
        }
        Map<String, TenantConfig> m = new TreeMap<>();
        Map<String, String> names = new TreeMap<>();
        List<TenantConfigException.Problem> problems = new ArrayList<>();
        for (Path f : files) {
            String fileName = f.getFileName().toString();
            String tenant = fileName.substring(0, fileName.length() - ".json".length());
            try {
                byte[] bytes;
                try {
                    bytes = Files.readAllBytes(f);
                } catch (IOException e) {
                    throw new TenantConfigException(f.toString(), "$", "cannot read: " + e.getMessage());
                }
                m.put(tenant, parser.parse(tenant, f.toString(), bytes));
                names.put(tenant, f.toString());
            } catch (TenantConfigException e) {
                problems.addAll(e.problems());
            }
        }
        return new Read(new TenantRegistry(m, names, Instant.now()), problems);
    }

    /**
     * A tenant file: {@code *.json}, not hidden. Names starting with {@code .} are editors' and tools' temporaries
     * (and Kubernetes' {@code ..data}), never tenants.
     */
    static boolean tenantFile(Path p) {
        String name = p.getFileName().toString();
        return name.endsWith(".json") && !name.startsWith(".");
    }

    /** The configuration new sessions of the tenant get; empty when it takes none (no such tenant, or removed). */
    public Optional<TenantConfig> get(String name) {
        return Optional.ofNullable(tenants.get(name));
    }

    /** The tenants taking new sessions, by name: a snapshot, unchanged by later reloads. */
    public Map<String, TenantConfig> all() {
        return tenants;
    }

    /**
     * The last configuration the tenant accepted, also after its file was removed (its existing sessions go on);
     * empty when it never had one.
     */
    public Optional<TenantConfig> lastAccepted(String name) {
        return Optional.ofNullable(last.get(name));
    }

    /** Whether the tenant takes new sessions. */
    public boolean accepting(String name) {
        return tenants.containsKey(name);
    }

    public Optional<TenantStatus> status(String name) {
        return Optional.ofNullable(status.get(name));
    }

    /** Every tenant's status by name, removed tenants and files never accepted included. */
    public Map<String, TenantStatus> statuses() {
        return Collections.unmodifiableMap(new TreeMap<>(status));
    }

    /** {@code config}, read from {@code file}, now serves the tenant's new sessions. */
    synchronized void accepted(TenantConfig config, String file, Instant at) {
        Map<String, TenantConfig> next = new TreeMap<>(tenants);
        next.put(config.name(), config);
        last.put(config.name(), config);
        status.put(config.name(), status(config.name(), file).accepted(file, config.digest(), at));
        tenants = Collections.unmodifiableMap(next);
    }

    /** A version of the tenant's file was refused; whatever served before goes on serving. */
    synchronized void rejected(String tenant, String file, TenantStatus.Rejection r) {
        status.put(tenant, status(tenant, file).rejected(r));
    }

    /** The tenant's file is again the version that serves. */
    synchronized void unchanged(String tenant) {
        status.computeIfPresent(tenant, (k, s) -> s.unchanged());
    }

    /** The tenant's file is gone: no new sessions. */
    synchronized void removed(String tenant, Instant at) {
        Map<String, TenantConfig> next = new TreeMap<>(tenants);
        next.remove(tenant);
        tenants = Collections.unmodifiableMap(next);
        status.computeIfPresent(tenant, (k, s) -> s.removed(at));
    }

    private TenantStatus status(String tenant, String file) {
        return status.getOrDefault(tenant, TenantStatus.unseen(tenant, file));
    }
}
