package dev.cloakgate.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

/**
 * Issue 17: a tenant's approval receipts in the database the replicas share ({@code approval_receipts}, migrated by
 * Flyway): a receipt put through one replica is found by every replica, and releases a call waiting on any of them
 * within one poll interval ({@link #POLL}: one query per store and interval for every fingerprint waited for, none
 * while nobody waits). A put replaces the earlier receipt in one statement, so a reader sees the old or the new one
 * whole.
 */
public final class PostgresApprovalStore extends PolledApprovalStore {
    public static final Duration POLL = Duration.ofMillis(250);

    private final DataSource db;
    private final String tenant;

    public PostgresApprovalStore(DataSource db, String tenant) {
        this(db, tenant, POLL);
    }

    public PostgresApprovalStore(DataSource db, String tenant, Duration poll) {
        super(tenant, poll);
        this.db = db;
        this.tenant = tenant;
    }

    @Override
    byte[] fetch(String fingerprintHex) {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(
                "SELECT receipt FROM approval_receipts WHERE tenant = ? AND fingerprint = ?")) {
            p.setString(1, tenant);
            p.setString(2, fingerprintHex);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        } catch (SQLException e) {
            throw new ApprovalStoreException(ApprovalStoreException.UNREADABLE, "the approval receipts of tenant " + tenant
                    + " cannot be read from the database: " + e.getMessage(), e);
        }
    }

    @Override
    Map<String, byte[]> fetchAll(Set<String> fingerprints) {
        Map<String, byte[]> out = new HashMap<>();
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(
                "SELECT fingerprint, receipt FROM approval_receipts WHERE tenant = ? AND fingerprint = ANY (?)")) {
            Array names = c.createArrayOf("text", fingerprints.toArray());
            p.setString(1, tenant);
            p.setArray(2, names);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getBytes(2));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("the approval receipts of tenant " + tenant + " cannot be read from the database: "
                    + e.getMessage(), e);
        }
        return out;
    }

    @Override
    void store(String fingerprintHex, byte[] receipt) {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement("INSERT INTO approval_receipts"
                + " (tenant, fingerprint, receipt, stored_at) VALUES (?, ?, ?, clock_timestamp()) ON CONFLICT (tenant, fingerprint)"
                + " DO UPDATE SET receipt = excluded.receipt, stored_at = excluded.stored_at")) {
            p.setString(1, tenant);
            p.setString(2, fingerprintHex);
            p.setBytes(3, receipt);
            p.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot store the approval receipt in the database for tenant " + tenant + ": "
                    + e.getMessage(), e);
        }
    }
}
