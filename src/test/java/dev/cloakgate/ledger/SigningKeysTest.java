package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.crypto.Ed25519PublicKey;

class SigningKeysTest {
    private static final byte[] SEED = HexFormat.of().parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    private static final String SEED_HEX = HexFormat.of().formatHex(SEED);

    @TempDir
    Path dir;

    @Test
    void readsAKeyFileInHexOrBase64() throws Exception {
        Path hex = Files.writeString(dir.resolve("hex.key"), SEED_HEX + "\n");
        Path b64 = Files.writeString(dir.resolve("b64.key"), Base64.getEncoder().encodeToString(SEED));
        for (Path file : List.of(hex, b64)) {
            SigningKeys.Loaded k = SigningKeys.load(Optional.of(file), Optional.empty(), false, dir);
            assertArrayEquals(SEED, k.key().seed());
            assertEquals(file.toString(), k.source());
            assertFalse(k.dev());
        }
        assertFalse(Files.exists(SigningKeys.devKeyFile(dir)), "a configured key never leaves a dev key behind");
    }

    @Test
    void readsTheEnvValue() {
        SigningKeys.Loaded hex = SigningKeys.load(Optional.empty(), Optional.of(SEED_HEX), false, dir);
        SigningKeys.Loaded b64 = SigningKeys.load(Optional.empty(), Optional.of(" " + Base64.getEncoder().encodeToString(SEED) + "\n"),
                true, dir);
        assertArrayEquals(SEED, hex.key().seed());
        assertArrayEquals(SEED, b64.key().seed());
        assertEquals("env CLOAKGATE_LEDGER_SIGNING_KEY", hex.source());
        assertFalse(b64.dev(), "a key that is set is not a dev key, dev mode or not");
        assertFalse(hex.toString().contains(SEED_HEX), hex.toString());
        assertTrue(hex.toString().contains(hex.key().publicKey().toString()), hex.toString());
    }

    @Test
    void refusesBothOrNeither() throws Exception {
        Path file = Files.writeString(dir.resolve("k"), SEED_HEX);
        SigningKeyException both = assertThrows(SigningKeyException.class,
                () -> SigningKeys.load(Optional.of(file), Optional.of(SEED_HEX), true, dir));
        assertTrue(both.getMessage().contains("cloakgate.ledger.signing-key-file")
                && both.getMessage().contains("CLOAKGATE_LEDGER_SIGNING_KEY"), both.getMessage());
        assertFalse(both.getMessage().contains(SEED_HEX));

        SigningKeyException none = assertThrows(SigningKeyException.class,
                () -> SigningKeys.load(Optional.empty(), Optional.empty(), false, dir));
        assertTrue(none.getMessage().contains("cloakgate.ledger.signing-key-file"), none.getMessage());
        assertTrue(none.getMessage().contains("env CLOAKGATE_LEDGER_SIGNING_KEY"), none.getMessage());
        assertTrue(none.getMessage().contains("cloakgate.ledger.dev-key=true"), none.getMessage());
        assertFalse(Files.exists(SigningKeys.devKeyFile(dir)), "outside dev mode no key is generated");
    }

    @Test
    void refusesBadKeyMaterialWithoutEchoingIt() throws Exception {
        String secretish = "c2VjcmV0LWJ1dC1ub3QtMzItYnl0ZXM=";
        Path bad = Files.writeString(dir.resolve("bad.key"), secretish);
        SigningKeyException e = assertThrows(SigningKeyException.class,
                () -> SigningKeys.load(Optional.of(bad), Optional.empty(), false, dir));
        assertTrue(e.getMessage().contains(bad.toString()) && e.getMessage().contains("hex or base64"), e.getMessage());
        assertFalse(e.getMessage().contains(secretish), e.getMessage());

        String badHex = SEED_HEX.substring(0, 62) + "zz";
        SigningKeyException env = assertThrows(SigningKeyException.class,
                () -> SigningKeys.load(Optional.empty(), Optional.of(badHex), false, dir));
        assertTrue(env.getMessage().contains("CLOAKGATE_LEDGER_SIGNING_KEY"), env.getMessage());
        assertFalse(env.getMessage().contains(badHex.substring(0, 16)), env.getMessage());
        assertFalse(env.getMessage().toLowerCase().contains("7a"), "no hex of the offending character: " + env.getMessage());

        assertThrows(SigningKeyException.class, () -> SigningKeys.load(Optional.empty(), Optional.of("  "), true, dir));
        SigningKeyException missing = assertThrows(SigningKeyException.class,
                () -> SigningKeys.load(Optional.of(dir.resolve("absent.key")), Optional.empty(), false, dir));
        assertTrue(missing.getMessage().contains("no such file"), missing.getMessage());
    }

    @Test
    void devModeGeneratesOnceOwnerOnlyAndReusesIt() throws Exception {
        SigningKeys.Loaded first = SigningKeys.load(Optional.empty(), Optional.empty(), true, dir);
        Path file = SigningKeys.devKeyFile(dir);
        assertTrue(first.dev());
        assertTrue(first.source().contains("generated") && first.source().contains(file.toString()), first.source());
        assertTrue(Files.isRegularFile(file));
        SigningKeys.Loaded again = SigningKeys.load(Optional.empty(), Optional.empty(), true, dir);
        assertTrue(again.dev());
        assertEquals(first.key().publicKey(), again.key().publicKey());
        assertEquals(first.key().publicKey(), again.key().publicKey());
        assertTrue(again.source().contains("earlier"), again.source());
        try (var files = Files.list(file.getParent())) {
            assertEquals(List.of(file), files.toList(), "no temporary file is left behind");
        }
        assumeTrue(file.getFileSystem().supportedFileAttributeViews().contains("posix"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void racingDevStartsAgreeOnOneKey() throws Exception {
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Ed25519PublicKey>> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add(pool.submit(() -> {
                    go.await();
                    return SigningKeys.load(Optional.empty(), Optional.empty(), true, dir).key().publicKey();
                }));
            }
            go.countDown();
            List<Ed25519PublicKey> got = new ArrayList<>();
            for (Future<Ed25519PublicKey> k : keys) {
                got.add(k.get());
            }
            assertEquals(1, got.stream().collect(Collectors.toSet()).size(), "every start uses the same key");
            assertEquals(got.get(0), SigningKeys.load(Optional.empty(), Optional.empty(), true, dir).key().publicKey());
        } finally {
            pool.shutdownNow();
        }
    }
}
