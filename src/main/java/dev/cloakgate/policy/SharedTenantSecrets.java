package dev.cloakgate.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;

/**
 * Issue 17: each tenant's {@link TenantSecret} in the database the replicas share ({@code tenant_secrets}), one per
 * tenant, so keyed digests agree on every replica. The first replica to need a tenant's secret draws it and inserts it
 * if absent; every replica then reads the one stored (first writer wins). It is stored sealed: AES-256-GCM under
 * {@code wrappingKey} (the {@code tenant-secrets} subkey of the cluster key), a random 96-bit nonce, associated data
 * naming the purpose and the tenant, so a row copied to another tenant, or read with another cluster key, is refused
 * rather than used.
 */
public final class SharedTenantSecrets {
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private final DataSource db;
    private final SecretKeySpec key;

    /** @param wrappingKey 32 bytes: the cluster key's {@code tenant-secrets} subkey */
    public SharedTenantSecrets(DataSource db, byte[] wrappingKey) {
        if (wrappingKey == null || wrappingKey.length != 32) {
            throw new IllegalArgumentException("the key that seals tenant secrets is 32 bytes");
        }
        this.db = db;
        this.key = new SecretKeySpec(wrappingKey.clone(), "AES");
    }

    /** The tenant's secret: the stored one, or a new one stored now when there is none. */
    public TenantSecret load(String tenant) throws IOException {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        byte[] nonce = new byte[12];
        RANDOM.nextBytes(nonce);
        try (Connection c = db.getConnection()) {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO tenant_secrets (tenant, nonce, sealed, created_at)"
                    + " VALUES (?, ?, ?, clock_timestamp()) ON CONFLICT (tenant) DO NOTHING")) {
                p.setString(1, tenant);
                p.setBytes(2, nonce);
                p.setBytes(3, crypt(Cipher.ENCRYPT_MODE, tenant, nonce, secret));
                p.executeUpdate();
            } finally {
                Arrays.fill(secret, (byte) 0);
            }
            try (PreparedStatement p = c.prepareStatement("SELECT nonce, sealed FROM tenant_secrets WHERE tenant = ?")) {
                p.setString(1, tenant);
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next()) {
                        throw new IOException("the secret of tenant " + tenant + " vanished from the database after it was stored");
                    }
                    byte[] opened = crypt(Cipher.DECRYPT_MODE, tenant, rs.getBytes(1), rs.getBytes(2));
                    try {
                        return TenantSecret.of(opened);
                    } finally {
                        Arrays.fill(opened, (byte) 0);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IOException("the secret of tenant " + tenant + " cannot be read or stored in the database: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IOException("tenant_secret_unreadable: the secret of tenant " + tenant + " in the database does not open"
                    + " with this cluster key (another cluster key, or a row of another tenant); every replica needs the same"
                    + " cloakgate.cluster.key-file", e);
        }
    }

    private byte[] crypt(int mode, String tenant, byte[] nonce, byte[] in) throws GeneralSecurityException {
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        gcm.updateAAD(("cloakgate/tenant-secret\0" + tenant).getBytes(StandardCharsets.UTF_8));
        return gcm.doFinal(in);
    }
}
