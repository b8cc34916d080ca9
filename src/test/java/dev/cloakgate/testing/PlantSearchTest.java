package dev.cloakgate.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/** The search the no-PII tests rely on finds each spelling it claims to. */
class PlantSearchTest {

    @Test
    void findsAValueAndEachSpellingOfItsPlainDigest() throws Exception {
        String v = Plants.all().get(0);
        byte[] d = MessageDigest.getInstance("SHA-256").digest(v.getBytes(StandardCharsets.UTF_8));
        PlantSearch.assertNone("clean", "{\"kind\":\"cloaked\",\"categories\":{\"EMAIL\":1}}".getBytes(StandardCharsets.UTF_8));
        for (byte[] stored : new byte[][] { ("x" + v + "y").getBytes(StandardCharsets.UTF_8),
                ("\"h\":\"" + HexFormat.of().formatHex(d) + "\"").getBytes(StandardCharsets.UTF_8),
                HexFormat.of().formatHex(d).toUpperCase().getBytes(StandardCharsets.US_ASCII),
                java.util.Base64.getEncoder().encode(d), concat(new byte[] { 1, 2 }, d) }) {
            assertThrows(AssertionError.class, () -> PlantSearch.assertNone("planted", stored));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
