package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

import javax.sql.DataSource;

/**
 * Issue 17: the sealed connections in the database the replicas share (table {@code upstream_oauth_connection},
 * migration V3), so an operator connects an upstream once, through any replica, and a refresh token one replica
 * rotates is the one the others find. Each call is one statement, its own transaction.
 */
public final class PostgresConnectionBlobs implements ConnectionBlobs {
    private final DataSource db;

    public PostgresConnectionBlobs(DataSource db) {
        this.db = db;
    }

    @Override
    public Optional<byte[]> read(String tenant, String upstream) throws IOException {
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT blob FROM upstream_oauth_connection WHERE tenant = ? AND upstream = ?")) {
            s.setString(1, tenant);
            s.setString(2, upstream);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(rs.getBytes(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IOException("upstream_token_store_unavailable: " + e.getSQLState(), e);
        }
    }

    @Override
    public void write(String tenant, String upstream, byte[] blob) throws IOException {
        update("INSERT INTO upstream_oauth_connection (tenant, upstream, blob, updated_at) VALUES (?, ?, ?, now())"
                + " ON CONFLICT (tenant, upstream) DO UPDATE SET blob = EXCLUDED.blob, updated_at = now()",
                tenant, upstream, blob);
    }

    @Override
    public void delete(String tenant, String upstream) throws IOException {
        update("DELETE FROM upstream_oauth_connection WHERE tenant = ? AND upstream = ?", tenant, upstream, null);
    }

    private void update(String sql, String tenant, String upstream, byte[] blob) throws IOException {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, tenant);
            s.setString(2, upstream);
            if (blob != null) {
                s.setBytes(3, blob);
            }
            s.executeUpdate();
        } catch (SQLException e) {
            throw new IOException("upstream_token_store_unavailable: " + e.getSQLState(), e);
        }
    }
}
