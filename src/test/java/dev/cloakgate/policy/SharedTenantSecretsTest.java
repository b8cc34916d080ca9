package dev.cloakgate.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: tenant secrets in a real PostgreSQL: replicas asking at once end with one secret (first writer wins), it is
 * stored sealed (never the key itself), and a row opened with another cluster key or copied to another tenant is refused.
 */
class SharedTenantSecretsTest {
    static byte[] key(int b) {
        byte[] k = new byte[32];
        java.util.Arrays.fill(k, (byte) b);
        return k;
    }

    @Test
    void replicasAskingAtOnceAllGetTheOneSecretStoredFirst() throws Exception {
        DataSource db = TestPostgres.server().database("secrets").migrated().dataSource();
        int replicas = 6;
        CyclicBarrier together = new CyclicBarrier(replicas);
        List<CompletableFuture<String>> digests = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            SharedTenantSecrets r = new SharedTenantSecrets(db, key(7));
            digests.add(CompletableFuture.supplyAsync(() -> {
                try {
                    together.await(60, TimeUnit.SECONDS);
                    return r.load("acme").hmac("payload");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        Set<String> seen = new HashSet<>();
        for (CompletableFuture<String> d : digests) {
            seen.add(d.get(60, TimeUnit.SECONDS));
        }
        assertEquals(1, seen.size(), "one secret for the tenant on every replica: " + seen);
        assertNotEquals(seen, Set.of(new SharedTenantSecrets(db, key(7)).load("globex").hmac("payload")),
                "another tenant has its own");
        try (Connection c = db.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT octet_length(sealed), octet_length(nonce) FROM tenant_secrets WHERE tenant = 'acme'")) {
            assertTrue(rs.next());
            assertEquals(32 + 16, rs.getInt(1), "32 bytes sealed with a 16-byte tag");
            assertEquals(12, rs.getInt(2));
        }
    }

    @Test
    void aSecretDoesNotOpenWithAnotherClusterKeyOrAsAnotherTenants() throws Exception {
        DataSource db = TestPostgres.server().database("secrets_keys").migrated().dataSource();
        String digest = new SharedTenantSecrets(db, key(1)).load("acme").hmac("x");
        IOException wrongKey = assertThrows(IOException.class, () -> new SharedTenantSecrets(db, key(2)).load("acme"));
        assertTrue(wrongKey.getMessage().startsWith("tenant_secret_unreadable"), wrongKey.getMessage());
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO tenant_secrets SELECT 'globex', nonce, sealed, created_at FROM tenant_secrets WHERE tenant = 'acme'");
        }
        IOException copied = assertThrows(IOException.class, () -> new SharedTenantSecrets(db, key(1)).load("globex"));
        assertTrue(copied.getMessage().startsWith("tenant_secret_unreadable"), copied.getMessage());
        assertEquals(digest, new SharedTenantSecrets(db, key(1)).load("acme").hmac("x"), "the stored secret, unchanged");
        assertThrows(IllegalArgumentException.class, () -> new SharedTenantSecrets(db, new byte[16]));
    }
}
