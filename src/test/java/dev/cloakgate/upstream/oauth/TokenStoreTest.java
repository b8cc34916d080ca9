package dev.cloakgate.upstream.oauth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import javax.crypto.SecretKey;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16: upstream OAuth connections encrypted at rest, bound to their upstream, failing closed. */
class TokenStoreTest {
    @TempDir
    Path data;

    private static final TokenStore.Saved SAVED = new TokenStore.Saved(
            new Client("dyn-1", "client-secret-value", "client_secret_basic", "dynamic"), "https://as.example",
            "refresh-token-value", "read");

    @Test
    void aConnectionRoundTripsAndIsNeverInTheClear() throws Exception {
        TokenStore store = new TokenStore(data.resolve("upstream-oauth"), StoreKey.generatedUnder(data), null);
        store.save("acme", "crm", SAVED);
        Path file = store.file("acme", "crm");
        String raw = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        assertFalse(raw.contains("refresh-token-value") || raw.contains("client-secret-value"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(data.resolve("keys/upstream-oauth.key"))));
        TokenStore.Read r = store.load("acme", "crm");
        assertNull(r.failure());
        assertEquals("refresh-token-value", r.saved().refreshToken());
        assertEquals("client-secret-value", r.saved().client().secret());
        assertEquals(new TokenStore.Read(null, null), store.load("acme", "other"), "nothing stored: no failure");
    }

    @Test
    void aBlobMovedToAnotherUpstreamOrTamperedDoesNotDecrypt() throws Exception {
        TokenStore store = new TokenStore(data.resolve("upstream-oauth"), StoreKey.generatedUnder(data), null);
        store.save("acme", "crm", SAVED);
        byte[] blob = Files.readAllBytes(store.file("acme", "crm"));
        Files.createDirectories(store.file("acme", "wiki").getParent());
        Files.write(store.file("acme", "wiki"), blob);
        assertEquals("upstream_token_store_invalid", store.load("acme", "wiki").failure());
        blob[blob.length - 1] ^= 1;
        Files.write(store.file("acme", "crm"), blob);
        TokenStore.Read r = store.load("acme", "crm");
        assertNull(r.saved());
        assertEquals("upstream_token_store_invalid", r.failure());
    }

    @Test
    void aRotatedKeyReadsThePreviousOnesBlobsAndReencryptsThem() throws Exception {
        SecretKey old = StoreKey.generatedUnder(data.resolve("old"));
        Path keyFile = data.resolve("new.key");
        Files.writeString(keyFile, "ab".repeat(32));
        SecretKey fresh = StoreKey.read(keyFile);
        new TokenStore(data.resolve("upstream-oauth"), old, null).save("acme", "crm", SAVED);
        byte[] before = Files.readAllBytes(data.resolve("upstream-oauth/acme/crm.conn"));
        assertEquals("upstream_token_store_invalid",
                new TokenStore(data.resolve("upstream-oauth"), fresh, null).load("acme", "crm").failure());
        TokenStore rotating = new TokenStore(data.resolve("upstream-oauth"), fresh, old);
        assertEquals("refresh-token-value", rotating.load("acme", "crm").saved().refreshToken());
        byte[] after = Files.readAllBytes(data.resolve("upstream-oauth/acme/crm.conn"));
        assertFalse(java.util.Arrays.equals(before, after));
        assertEquals("refresh-token-value",
                new TokenStore(data.resolve("upstream-oauth"), fresh, null).load("acme", "crm").saved().refreshToken());
        assertTrue(StoreKey.read(keyFile).getEncoded().length == 32);
        assertArrayEquals(fresh.getEncoded(), StoreKey.read(keyFile).getEncoded());
    }
}
