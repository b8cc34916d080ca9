package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import dev.cloakgate.store.OwnerOnly;

/**
 * The AES-256 key of the upstream OAuth store: from a mounted Secret file (32 bytes as 64 hex digits or base64),
 * else generated once under the data dir ({@code keys/upstream-oauth.key}, owner-only) and read from there after.
 */
public final class StoreKey {
    private StoreKey() {
    }

    /** Reads a key file; an unreadable or malformed one is refused naming the file, never quoting it. */
    public static SecretKey read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new IllegalStateException("upstream_oauth_key_invalid: cannot read " + file + " ("
                    + e.getClass().getSimpleName() + ")");
        }
        byte[] raw;
        try {
            raw = text.matches("[0-9a-fA-F]{64}") ? HexFormat.of().parseHex(text) : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            raw = new byte[0];
        }
        if (raw.length != 32) {
            throw new IllegalStateException("upstream_oauth_key_invalid: " + file
                    + " must hold 32 bytes (64 hex digits or base64)");
        }
        return new SecretKeySpec(raw, "AES");
    }

    /** The generated key under the data dir, made (owner-only) when absent. */
    public static SecretKey generatedUnder(Path dataDir) {
        Path dir = dataDir.resolve("keys");
        Path file = dir.resolve("upstream-oauth.key");
        if (!Files.exists(file)) {
            try {
                Files.createDirectories(dir);
                byte[] raw = new byte[32];
                new SecureRandom().nextBytes(raw);
                Path tmp = OwnerOnly.tempFile(dir, ".upstream-oauth-");
                Files.writeString(tmp, HexFormat.of().formatHex(raw) + "\n", StandardCharsets.US_ASCII);
                try {
                    // never over an existing key: a second process that got there first wins, and both read its key
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException e) {
                    // the other one's
                } finally {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException e) {
                throw new IllegalStateException("upstream_oauth_key_invalid: cannot create " + file + " ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        return read(file);
    }
}
