package dev.cloakgate.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/**
 * cosignature/v1 (C2SP tlog-cosignature, Ed25519, signature type 0x04) against a fixed vector derived from the spec:
 * the witness key is RFC 8032 section 7.1 TEST 1's, the checkpoint and the timestamp are the spec's own example
 * ({@code example.com/behind-the-sofa}, {@code time 1679315147}). The expected key ID, vkey and signature line were
 * computed outside this code base (Python's {@code cryptography} package: SHA-256 of name, newline, 0x04 and the
 * key; Ed25519 over the header, time line and checkpoint text).
 */
class WitnessKeyTest {
    private static final byte[] SEED = HexFormat.of().parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    private static final String NAME = "witness.example.com/w1";
    private static final String VKEY = "witness.example.com/w1+7e6f4aaa+BNdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea";
    private static final String TEXT = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
    private static final String LINE = "\u2014 witness.example.com/w1 fm9KqgAAAABkGFDL+TPmh4BYuAjsYRoqMJCWb/gWJaeRF/kmm5tlCr9sJ57DLEr"
            + "ur7K0yDXc2ArN+TIuotuB/HbuL3AJsp3bv/aNCQ==";
    /** The cosignature line of the spec's example (its witness key is not published). */
    private static final String SPEC_EXAMPLE = "\u2014 witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWX"
            + "EhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==";

    private static WitnessKey key() {
        return WitnessKey.of(NAME, Ed25519SigningKey.fromSeed(SEED).publicKey());
    }

    @Test
    void keyIdAndVerifierKeyAreTheSpecs() {
        assertEquals("7e6f4aaa", key().keyId().hex());
        assertEquals(VKEY, key().encoded());
        assertEquals(key(), WitnessKey.parse(VKEY));
        // a cosignature key's ID is not the same key's signed-note (0x01) ID: one key, two types, two IDs
        assertTrue(!KeyId.of(NAME, key().publicKey()).equals(key().keyId()));
    }

    @Test
    void theSignedMessageIsHeaderTimeLineAndCheckpoint() {
        assertEquals("cosignature/v1\ntime 1679315147\n" + TEXT, new String(WitnessKey.message(TEXT, 1679315147L),
                java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void theFixedVectorVerifies() {
        WitnessKey.Check c = key().check(TEXT, LINE);
        assertEquals(new WitnessKey.Check.Valid(1679315147L), c);
        // and signing the same message with the same seed gives exactly its signature bytes (Ed25519 is deterministic)
        byte[] sig = Ed25519SigningKey.fromSeed(SEED).sign(WitnessKey.message(TEXT, 1679315147L));
        byte[] all = ByteBuffer.allocate(76).put(key().keyId().bytes()).putLong(1679315147L).put(sig).array();
        assertEquals(LINE, "\u2014 " + NAME + " " + Base64.getEncoder().encodeToString(all));
    }

    @Test
    void theSpecsExampleHasTheLayoutAndIsAnotherKeysLine() {
        byte[] raw = Base64.getDecoder().decode(SPEC_EXAMPLE.substring(SPEC_EXAMPLE.lastIndexOf(' ') + 1));
        assertEquals(76, raw.length, "key ID, 8-byte timestamp, Ed25519 signature");
        assertEquals(1679315147L, ByteBuffer.wrap(raw, 4, 8).getLong(), "the spec's time line");
        assertNull(key().check(TEXT, SPEC_EXAMPLE), "same name, another key ID: not ours, ignored");
    }

    @Test
    void tamperedCosignaturesAreInvalid() {
        byte[] raw = Base64.getDecoder().decode(LINE.substring(LINE.lastIndexOf(' ') + 1));
        // another checkpoint
        assertInstanceOf(WitnessKey.Check.Invalid.class, key().check(TEXT.replace("20852163", "20852164"), LINE));
        // the timestamp changed: it is signed
        byte[] later = raw.clone();
        later[11] ^= 1;
        assertInstanceOf(WitnessKey.Check.Invalid.class, key().verify(TEXT, later));
        // a zero timestamp, one beyond 2^63-1, a short signature
        byte[] zero = raw.clone();
        java.util.Arrays.fill(zero, 4, 12, (byte) 0);
        assertEquals(new WitnessKey.Check.Invalid("timestamp is zero"), key().verify(TEXT, zero));
        byte[] huge = raw.clone();
        huge[4] = (byte) 0x80;
        assertEquals(new WitnessKey.Check.Invalid("timestamp beyond 2^63-1"), key().verify(TEXT, huge));
        assertInstanceOf(WitnessKey.Check.Invalid.class, key().verify(TEXT, java.util.Arrays.copyOf(raw, 75)));
        // another name is another key's line
        assertNull(key().check(TEXT, LINE.replace(NAME, "witness.example.com/w2")));
    }

    @Test
    void verifierKeysOfOtherTypesAreRefused() {
        // the signed-note example key (type 0x01): a log key, not a cosigner's
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WitnessKey.parse("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"));
        assertTrue(e.getMessage().contains("type 0x01"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WitnessKey.parse(VKEY.replace("7e6f4aaa", "7e6f4aab")));
        assertThrows(IllegalArgumentException.class, () -> WitnessKey.parse("witness.example.com/w1+7e6f4aaa"));
    }

    /** The base64 of a key may hold '+', the separator of a vkey's parts: only the first two '+' separate. */
    @Test
    void verifierKeysWhoseBase64HoldsAPlusParse() {
        assertTrue(VKEY.split("\\+").length > 3, VKEY);
        assertEquals(key(), WitnessKey.parse(VKEY));
        NoteVerifier log = NoteVerifier.of(NAME, key().publicKey());
        assertTrue(log.encoded().split("\\+").length > 3, log.encoded());
        assertEquals(log, NoteVerifier.parse(log.encoded()));
    }
}
