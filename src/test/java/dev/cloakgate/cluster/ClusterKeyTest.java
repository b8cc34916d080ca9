package dev.cloakgate.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterKeyTest {

    static byte[] raw() {
        byte[] b = new byte[32];
        for (int i = 0; i < 32; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @Test
    void subkeysAreRfc5869HkdfSha256WithoutSaltAndWithThePurposeAsInfo() throws Exception {
        // RFC 5869 by hand with the JDK's HMAC: PRK = HMAC(zeros(32), IKM); T(1) = HMAC(PRK, info || 0x01)
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(new byte[32], "HmacSHA256"));
        byte[] prk = mac.doFinal(raw());
        mac.init(new javax.crypto.spec.SecretKeySpec(prk, "HmacSHA256"));
        mac.update("cloakgate/session-id".getBytes(StandardCharsets.UTF_8));
        mac.update((byte) 1);
        byte[] expected = mac.doFinal();
        ClusterKey key = ClusterKey.of(raw());
        assertArrayEquals(expected, key.subkey(ClusterKey.SESSION_ID));
        assertFalse(Arrays.equals(key.subkey(ClusterKey.SESSION_ID), key.subkey(ClusterKey.PEER_AUTH)));
        assertFalse(Arrays.equals(key.subkey(ClusterKey.PEER_AUTH), key.subkey(ClusterKey.TENANT_SECRETS)));
        assertEquals(32, key.subkey(ClusterKey.TENANT_SECRETS).length);
    }

    @Test
    void readsTheStandardBase64OfExactly32Bytes(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cluster.key");
        Files.writeString(f, Base64.getEncoder().encodeToString(raw()) + "\n");
        assertArrayEquals(ClusterKey.of(raw()).subkey("x"), ClusterKey.read(Optional.of(f.toString())).subkey("x"));
    }

    @Test
    void refusesAMissingOrMalformedKeyWithAStableCodeNeverQuotingIt(@TempDir Path dir) throws Exception {
        assertEquals("cluster_key_missing", assertThrows(ClusterSetupException.class,
                () -> ClusterKey.read(Optional.empty())).code());
        assertEquals("cluster_key_missing", assertThrows(ClusterSetupException.class,
                () -> ClusterKey.read(Optional.of(dir.resolve("absent").toString()))).code());
        String[] bad = { Base64.getEncoder().encodeToString(new byte[31]), Base64.getEncoder().encodeToString(new byte[33]),
                HexFormat.of().formatHex(raw()), "not base64 at all!", "" };
        for (String text : bad) {
            Path f = dir.resolve("bad.key");
            Files.writeString(f, text);
            ClusterSetupException e = assertThrows(ClusterSetupException.class, () -> ClusterKey.read(Optional.of(f.toString())));
            assertEquals("cluster_key_invalid", e.code(), text);
            assertTrue(text.isEmpty() || !e.getMessage().contains(text), e.getMessage());
        }
    }
}
