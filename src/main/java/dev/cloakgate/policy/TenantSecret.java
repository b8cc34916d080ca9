package dev.cloakgate.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A tenant's 32-byte secret for keyed digests ({@code {data-dir}/keys/{tenant}.secret}, created on first use,
 * owner-only). Records bind to payloads by HMAC-SHA-256 under it, never by plain hash: a short value such as an
 * e-mail address is recovered from its SHA-256 by brute force.
 */
public final class TenantSecret {
    private final byte[] key;
    /** Mac.getInstance costs more than hashing a small payload: one initialised Mac per thread. */
    private final ThreadLocal<Mac> macs;

    private TenantSecret(byte[] key) {
        this.key = key;
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(this.key, "HmacSHA256"));
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Issue 17: a secret held elsewhere (the shared database: {@link SharedTenantSecrets}); 32 bytes, copied. */
    public static TenantSecret of(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("a tenant secret is 32 bytes");
        }
        return new TenantSecret(key.clone());
    }

    public static TenantSecret load(Path dataDir, String tenant) throws IOException {
        Path file = dataDir.resolve("keys").resolve(tenant + ".secret");
        Files.createDirectories(file.getParent());
        if (!Files.exists(file)) {
            byte[] k = new byte[32];
            new SecureRandom().nextBytes(k);
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (FileAlreadyExistsException raced) {
                return load(dataDir, tenant);
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            Files.write(file, HexFormat.of().formatHex(k).getBytes(StandardCharsets.US_ASCII), StandardOpenOption.WRITE,
                    StandardOpenOption.SYNC);
            return new TenantSecret(k);
        }
        String hex = Files.readString(file, StandardCharsets.US_ASCII).strip();
        if (!hex.matches("[0-9a-f]{64}")) {
            throw new IOException("tenant secret " + file + " is not 64 hex characters; restore it or remove it");
        }
        return new TenantSecret(HexFormat.of().parseHex(hex));
    }

    /**
     * How records name a session: a keyed digest of its id (the id is a bearer handle), the same in the decision
     * trace and the ledger so one session's entries can be followed across both.
     */
    public String sessionDigest(String sessionId) {
        return hmac("session:" + sessionId).substring(0, 16);
    }

    public String hmac(String text) {
        return HexFormat.of().formatHex(macs.get().doFinal(text.getBytes(StandardCharsets.UTF_8)));
    }
}
