package dev.cloakgate.tenant;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Every tenant of this gateway, loaded from one JSON file each. A bad file stops the load; every problem is named. */
public final class TenantRegistry {
    private final Map<String, TenantConfig> tenants;

    private TenantRegistry(Map<String, TenantConfig> tenants) {
        this.tenants = Collections.unmodifiableMap(tenants);
    }

    public static TenantRegistry of(TenantConfig... configs) {
        Map<String, TenantConfig> m = new TreeMap<>();
        for (TenantConfig c : configs) {
            m.put(c.name(), c);
        }
        return new TenantRegistry(m);
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
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
            ds.forEach(files::add);
        } catch (IOException e) {
            throw new TenantConfigException(dir.toString(), "$", "cannot list tenants directory: " + e.getMessage());
        }
        Collections.sort(files);
        if (files.isEmpty()) {
            throw new TenantConfigException(dir.toString(), "$", "no tenant files (*.json) found");
        }
        Map<String, TenantConfig> m = new TreeMap<>();
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
            } catch (TenantConfigException e) {
                problems.addAll(e.problems());
            }
        }
        return new Read(new TenantRegistry(m), problems);
    }

    public Optional<TenantConfig> get(String name) {
        return Optional.ofNullable(tenants.get(name));
    }

    public Map<String, TenantConfig> all() {
        return tenants;
    }
}
