package dev.cloakgate.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Searches stored bytes (a database file, an export part) for the planted values and for their plain SHA-256 in
 * every spelling a record might use: hex, upper-case hex, base64, raw bytes. A short value is recovered from its
 * plain hash by brute force, so a digest found is a leak as much as the value.
 */
public final class PlantSearch {
    private PlantSearch() {
    }

    public static void assertNone(String where, byte[] stored) {
        // ISO-8859-1 maps each byte to one char, so a byte search becomes indexOf
        String hay = new String(stored, StandardCharsets.ISO_8859_1);
        List<String> found = new ArrayList<>();
        for (String v : Plants.all()) {
            byte[] digest = sha256(v.getBytes(StandardCharsets.UTF_8));
            String hex = HexFormat.of().formatHex(digest);
            String[] forms = { bytes(v.getBytes(StandardCharsets.UTF_8)), hex, hex.toUpperCase(java.util.Locale.ROOT),
                    Base64.getEncoder().encodeToString(digest), bytes(digest) };
            String[] names = { "value", "sha256 hex", "SHA256 HEX", "sha256 base64", "sha256 raw" };
            for (int i = 0; i < forms.length; i++) {
                if (hay.contains(forms[i])) {
                    found.add(names[i] + " of planted value #" + Plants.all().indexOf(v));
                }
            }
        }
        assertTrue(found.isEmpty(), where + " holds " + found);
    }

    private static String bytes(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
