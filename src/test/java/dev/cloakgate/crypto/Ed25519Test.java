package dev.cloakgate.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 8032 section 7.1 test vectors, and the key handling around them. */
class Ed25519Test {

    private static final HexFormat HEX = HexFormat.of();

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "TEST 1, 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60,"
                + " d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a, '',"
                + " e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
        "TEST 2, 4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb,"
                + " 3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c, 72,"
                + " 92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
        "TEST 3, c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7,"
                + " fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025, af82,"
                + " 6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
        "TEST 1024, f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5,"
                + " 278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e, @rfc8032-test1024-message.hex,"
                + " 0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03",
    })
    void rfc8032Section71(String name, String secret, String publicKey, String message, String signature)
            throws IOException {
        byte[] msg = message(message);
        Ed25519SigningKey key = Ed25519SigningKey.fromSeed(HEX.parseHex(secret));
        assertEquals(publicKey, HEX.formatHex(key.publicKey().bytes()), "public key derived from the secret");
        byte[] sig = key.sign(msg);
        assertEquals(signature, HEX.formatHex(sig));

        Ed25519PublicKey verifier = Ed25519PublicKey.of(HEX.parseHex(publicKey));
        assertTrue(verifier.verify(msg, sig));
        for (int bit : new int[] {0, 7, 255, 256, 511}) {
            byte[] flipped = sig.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            assertFalse(verifier.verify(msg, flipped), "signature bit " + bit + " flipped");
        }
        byte[] otherMessage = msg.length == 0 ? new byte[] {0} : msg.clone();
        otherMessage[0] ^= 1;
        assertFalse(verifier.verify(otherMessage, sig), "message bit flipped");
    }

    private static byte[] message(String spec) throws IOException {
        if (!spec.startsWith("@")) {
            return HEX.parseHex(spec);
        }
        try (InputStream in = Ed25519Test.class.getResourceAsStream("/crypto/" + spec.substring(1))) {
            String hex = new String(in.readAllBytes(), StandardCharsets.US_ASCII).replaceAll("\\s", "");
            byte[] bytes = HEX.parseHex(hex);
            assertEquals(1023, bytes.length);
            return bytes;
        }
    }

    @Test
    void refusesWrongLengthsAndBadPoints() {
        assertThrows(IllegalArgumentException.class, () -> Ed25519SigningKey.fromSeed(new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> Ed25519PublicKey.of(new byte[33]));
        Ed25519SigningKey key = Ed25519SigningKey.fromSeed(new byte[32]);
        byte[] sig = key.sign(new byte[] {1, 2, 3});
        assertFalse(key.publicKey().verify(new byte[] {1, 2, 3}, java.util.Arrays.copyOf(sig, 63)));
        // y = 2 is not on the curve: verification fails instead of throwing
        byte[] notAPoint = new byte[32];
        notAPoint[0] = 2;
        assertFalse(Ed25519PublicKey.of(notAPoint).verify(new byte[] {1, 2, 3}, sig));
    }

    @Test
    void readsSeedFilesInHexOrBase64(@TempDir Path dir) throws IOException {
        byte[] seed = HEX.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
        Path hex = Files.writeString(dir.resolve("hex.key"), HEX.formatHex(seed) + "\n");
        Path b64 = Files.writeString(dir.resolve("b64.key"), "  " + Base64.getEncoder().encodeToString(seed) + "\n");
        Path bad = Files.writeString(dir.resolve("bad.key"), "not a key at all");
        Path shortKey = Files.writeString(dir.resolve("short.key"), HEX.formatHex(new byte[16]));
        assertArrayEquals(seed, Ed25519SigningKey.fromFile(hex).seed());
        assertArrayEquals(seed, Ed25519SigningKey.fromFile(b64).seed());
        IOException e = assertThrows(IOException.class, () -> Ed25519SigningKey.fromFile(bad));
        assertFalse(e.getMessage().contains("not a key at all"), "a refusal never quotes the key file");
        assertThrows(IOException.class, () -> Ed25519SigningKey.fromFile(shortKey));
    }

    @Test
    void generatedKeysSignAndVerifyAndNeverPrintTheSeed() {
        Ed25519SigningKey key = Ed25519SigningKey.generate(new SecureRandom());
        byte[] message = "evidence".getBytes(StandardCharsets.UTF_8);
        assertTrue(key.publicKey().verify(message, key.sign(message)));
        assertFalse(key.toString().contains(HEX.formatHex(key.seed())));
        assertEquals(key.publicKey(), Ed25519SigningKey.fromSeed(key.seed()).publicKey());
    }

    /** golang.org/x/mod/sumdb/note's example key: the C2SP key ID and verifier key string agree with Go's. */
    @Test
    void keyIdAndVerifierKeyMatchTheGoNotePackage() {
        byte[] typedSeed = Base64.getDecoder().decode("AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz");
        byte[] seed = java.util.Arrays.copyOfRange(typedSeed, 1, typedSeed.length);
        NoteSigner signer = new NoteSigner("PeterNeumann", Ed25519SigningKey.fromSeed(seed));
        assertEquals("c74f20a3", signer.keyId().hex());
        assertEquals("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                signer.verifier().encoded());
        NoteVerifier parsed = NoteVerifier.parse(signer.verifier().encoded());
        assertEquals(signer.verifier(), parsed);
    }

    @Test
    void verifierKeyStringsAreCheckedWhole() {
        String good = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
        for (String bad : new String[] {
            "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // ID not the key's
            "PeterNeumanm+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // name not the key's
            "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // upper-case hex
            "PeterNeumann+c74f20a3+Alpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", // type byte not 0x01
            "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10", // short key
            "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
            "PeterNeumann+c74f20a3",
            "+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
        }) {
            assertThrows(IllegalArgumentException.class, () -> NoteVerifier.parse(bad), bad);
        }
        NoteVerifier.parse(good);
    }
}
