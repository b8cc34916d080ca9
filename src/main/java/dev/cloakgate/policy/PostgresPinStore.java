package dev.cloakgate.policy;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 17: a tenant's {@link PinStore} in the database the replicas share ({@code tool_pins}, {@code tool_pin_versions};
 * migrated by Flyway), so that a pin accepted through one replica (admin API {@code pins accept}) takes effect on every
 * replica at its next check, and a tool first seen on two replicas at once is pinned once.
 *
 * <p><b>A version check per use.</b> Every change raises the tenant's version in the transaction that makes it, under
 * that row's lock ({@code FOR UPDATE}: a tenant's changes are serialised across replicas as the pin file's lock
 * serialises processes). A check or read first asks for the version (one indexed single-row read): unchanged, the cached
 * pins answer, so a {@code tools/list} of N unchanged tools costs N tiny reads and no lock; changed, the pins are read
 * again. A cache with a time to live was not chosen: an accepted pin would then take effect on the other replicas only
 * when it ran out, and a quarantine lifted on one replica must not stay in force on another for an unknown while.
 */
public final class PostgresPinStore implements PinStore, PinRules.Locked {
    private static final ObjectMapper M = new ObjectMapper();
    private final DataSource db;
    private final String tenant;
    /** The pins as of {@link #cachedVersion}; guarded by this. */
    private Map<String, Pin> cache;
    private long cachedVersion = -1;

    public PostgresPinStore(DataSource db, String tenant) {
        this.db = Objects.requireNonNull(db);
        this.tenant = Objects.requireNonNull(tenant);
    }

    @Override
    public String tenant() {
        return tenant;
    }

    @Override
    public String where() {
        return "the shared database (tool_pins of tenant " + tenant + ")";
    }

    @Override
    public synchronized Check check(String upstream, String tool, Seen seen) throws IOException {
        String key = upstream + "/" + tool;
        Pin p = current().get(key);
        if (p != null && p.sha256().equals(seen.sha256()) && p.pending() == null) {
            return Check.SAME; // a tools/list of N tools must not cost N locked transactions
        }
        return PinRules.check(this, key, seen);
    }

    @Override
    public synchronized Pin pin(String key) throws IOException {
        return current().get(key);
    }

    @Override
    public synchronized Set<String> acceptAll(Map<String, String> reviewed) throws IOException {
        return PinRules.acceptAll(this, reviewed);
    }

    @Override
    public synchronized Map<String, Pin> all() throws IOException {
        return new LinkedHashMap<>(current());
    }

    /** The pins as the database has them now: the cache when the version is unchanged, else read again. */
    private Map<String, Pin> current() throws IOException {
        try (Connection c = db.getConnection()) {
            long version = version(c, false);
            if (cache == null || version != cachedVersion) {
                cache = read(c);
                cachedVersion = version;
            }
            return cache;
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    /** What a committed change leaves: its answer, the pins and the version now stored. */
    private record Committed<T>(T value, Map<String, Pin> pins, long version) {
    }

    @Override
    public synchronized <T> T locked(PinRules.Change<T> change) throws IOException {
        try {
            Committed<T> done = dev.cloakgate.store.Transaction.<Committed<T>, IOException>run(db, true, c -> {
                try (PreparedStatement p = c.prepareStatement(
                        "INSERT INTO tool_pin_versions (tenant, version) VALUES (?, 0) ON CONFLICT (tenant) DO NOTHING")) {
                    p.setString(1, tenant);
                    p.executeUpdate();
                }
                long version = version(c, true);
                Map<String, Pin> before = read(c);
                Map<String, Pin> pins = new LinkedHashMap<>(before);
                PinRules.Outcome<T> o = change.apply(pins);
                if (o.write()) {
                    for (Pin pin : pins.values()) {
                        if (!pin.equals(before.get(pin.tool()))) {
                            write(c, pin);
                        }
                    }
                    try (PreparedStatement p = c.prepareStatement("UPDATE tool_pin_versions SET version = version + 1 WHERE tenant = ?")) {
                        p.setString(1, tenant);
                        p.executeUpdate();
                    }
                    version++;
                }
                return new Committed<>(o.value(), pins, version);
            });
            // the cache follows what was committed, never a change rolled back
            cache = done.pins();
            cachedVersion = done.version();
            return done.value();
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    /** The tenant's version (0 before its first pin), under the row's lock when {@code lock}. */
    private long version(Connection c, boolean lock) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT version FROM tool_pin_versions WHERE tenant = ?"
                + (lock ? " FOR UPDATE" : ""))) {
            p.setString(1, tenant);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private Map<String, Pin> read(Connection c) throws SQLException, IOException {
        Map<String, Pin> pins = new LinkedHashMap<>();
        try (PreparedStatement p = c.prepareStatement("SELECT tool, sha256, pinned_at, pending, definition, pending_definition"
                + " FROM tool_pins WHERE tenant = ? ORDER BY pinned_at, tool")) {
            p.setString(1, tenant);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    pins.put(rs.getString(1), new Pin(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            json(rs.getString(5)), json(rs.getString(6))));
                }
            }
        }
        return pins;
    }

    private void write(Connection c, Pin pin) throws SQLException, IOException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO tool_pins (tenant, tool, sha256, pinned_at, pending, definition,"
                + " pending_definition) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, tool) DO UPDATE SET sha256 = excluded.sha256,"
                + " pinned_at = excluded.pinned_at, pending = excluded.pending, definition = excluded.definition,"
                + " pending_definition = excluded.pending_definition")) {
            p.setString(1, tenant);
            p.setString(2, pin.tool());
            p.setString(3, pin.sha256());
            p.setString(4, pin.pinnedAt());
            p.setString(5, pin.pending());
            p.setString(6, pin.definition() == null ? null : M.writeValueAsString(pin.definition()));
            p.setString(7, pin.pendingDefinition() == null ? null : M.writeValueAsString(pin.pendingDefinition()));
            p.executeUpdate();
        }
    }

    private JsonNode json(String text) throws IOException {
        if (text == null) {
            return null;
        }
        try {
            return M.readTree(text);
        } catch (IOException e) {
            // refuse rather than start over: starting over would pin a rug-pulled definition as the original
            throw new IOException("a pinned definition of tenant " + tenant + " in the database is unreadable ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    private IOException unavailable(SQLException e) {
        // an IOException, as the file store's: the pinning control quarantines when the pins cannot be used
        return new IOException("the pins of tenant " + tenant + " cannot be read or written in the database: " + e.getMessage(), e);
    }
}
