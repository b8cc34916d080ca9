package dev.cloakgate.upstream.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: upstream OAuth connections in the database the replicas share: what one replica stores the others read,
 * sealed as on disk (never a token in the clear in the database), bound to tenant and upstream, deleted for all.
 */
class SharedConnectionsTest {
    private static final SecretKey KEY = new SecretKeySpec(new byte[32], "AES");
    private static final TokenStore.Saved SAVED = new TokenStore.Saved(
            new Client("dyn-1", "client-secret-value", "client_secret_basic", "dynamic"), "https://as.example",
            "refresh-token-value", "read");

    @Test
    void aConnectionStoredThroughOneReplicaIsReadByAnotherAndNeverInTheClear() throws Exception {
        DataSource db = TestPostgres.server().database("oauth_conn").migrated().dataSource();
        TokenStore r0 = new TokenStore(new PostgresConnectionBlobs(db), KEY, null);
        TokenStore r1 = new TokenStore(new PostgresConnectionBlobs(db), KEY, null);
        assertEquals(new TokenStore.Read(null, null), r1.load("acme", "crm"), "nothing stored: no failure");
        r0.save("acme", "crm", SAVED);
        assertEquals("refresh-token-value", r1.load("acme", "crm").saved().refreshToken());
        assertEquals("client-secret-value", r1.load("acme", "crm").saved().client().secret());

        byte[] blob;
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(
                "SELECT blob FROM upstream_oauth_connection WHERE tenant = 'acme' AND upstream = 'crm'");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            blob = rs.getBytes(1);
        }
        String raw = new String(blob, StandardCharsets.ISO_8859_1);
        assertFalse(raw.contains("refresh-token-value") || raw.contains("client-secret-value"));

        // a blob moved to another upstream does not decrypt there
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(
                "INSERT INTO upstream_oauth_connection (tenant, upstream, blob, updated_at) VALUES ('acme', 'wiki', ?, now())")) {
            s.setBytes(1, blob);
            s.executeUpdate();
        }
        assertEquals("upstream_token_store_invalid", r1.load("acme", "wiki").failure());

        // replaced whole, and deleted for every replica
        r1.save("acme", "crm", new TokenStore.Saved(SAVED.client(), SAVED.issuer(), "rotated", SAVED.scope()));
        assertEquals("rotated", r0.load("acme", "crm").saved().refreshToken());
        r0.delete("acme", "crm");
        assertNull(r1.load("acme", "crm").saved());
        assertNull(r1.load("acme", "crm").failure());
    }
}
