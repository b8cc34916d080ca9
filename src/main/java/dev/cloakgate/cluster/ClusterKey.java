package dev.cloakgate.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/**
 * The key the replicas share (a mounted Secret): a text file holding the standard base64 of exactly 32 random
 * bytes. Nothing uses it directly; each purpose gets its own subkey, HKDF-SHA256 (RFC 5869) without salt and with
 * info {@code "cloakgate/" + purpose}, so a subkey that leaks from one use says nothing of another's.
 */
public final class ClusterKey {
    /** Encrypts session ids (owner replica and random part). */
    public static final String SESSION_ID = "session-id";
    /** Signs a request one replica forwards to another. */
    public static final String PEER_AUTH = "peer-auth";
    /** Encrypts tenant secrets kept in the shared store. */
    public static final String TENANT_SECRETS = "tenant-secrets";
    /** Seals upstream OAuth connections in the shared store when no key file is given. */
    public static final String UPSTREAM_OAUTH = "upstream-oauth";

    private static final int LENGTH = 32;
    private final byte[] key;

    private ClusterKey(byte[] key) {
        this.key = key;
    }

    /** The key of {@code file}; {@code cluster_key_missing} when unset or absent, {@code cluster_key_invalid} else. */
    public static ClusterKey read(Optional<String> file) {
        if (file.isEmpty() || file.get().isBlank()) {
            throw new ClusterSetupException("cluster_key_missing", "cloakgate.cluster.replica-id is set, so "
                    + "cloakgate.cluster.key-file must name the replicas' shared key (the standard base64 of 32 random "
                    + "bytes, e.g. `head -c 32 /dev/urandom | base64`, mounted from a Secret)");
        }
        Path path = Path.of(file.get());
        String text;
        try {
            text = Files.readString(path, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            throw new ClusterSetupException("cluster_key_missing", "cloakgate.cluster.key-file " + path
                    + " does not exist; mount the replicas' shared key there");
        } catch (IOException e) {
            throw new ClusterSetupException("cluster_key_invalid", "cannot read cloakgate.cluster.key-file " + path + " ("
                    + e.getClass().getSimpleName() + ")");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            raw = new byte[0];
        }
        if (raw.length != LENGTH) {
            Arrays.fill(raw, (byte) 0);
            throw new ClusterSetupException("cluster_key_invalid", "cloakgate.cluster.key-file " + path
                    + " must hold the standard base64 of exactly 32 bytes (`head -c 32 /dev/urandom | base64`)");
        }
        return new ClusterKey(raw);
    }

    /** A key of these 32 bytes (tests and tools that hold the key already). */
    public static ClusterKey of(byte[] raw) {
        if (raw.length != LENGTH) {
            throw new ClusterSetupException("cluster_key_invalid", "a cluster key is exactly 32 bytes");
        }
        return new ClusterKey(raw.clone());
    }

    /** The 32-byte subkey of {@code purpose}: HKDF-SHA256, no salt, info {@code "cloakgate/" + purpose}. */
    public byte[] subkey(String purpose) {
        HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
        hkdf.init(new HKDFParameters(key, null, ("cloakgate/" + purpose).getBytes(StandardCharsets.UTF_8)));
        byte[] out = new byte[LENGTH];
        hkdf.generateBytes(out, 0, LENGTH);
        return out;
    }

    @Override
    public String toString() {
        return "ClusterKey[redacted]";
    }
}
