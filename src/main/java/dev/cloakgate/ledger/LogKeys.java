package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;

/**
 * One log's keys, derived from the master seed so that no key signs for two purposes or two logs: the checkpoint
 * key, named as the origin (tlog-checkpoint: the key name matches the origin), and the export manifest key, named
 * {@code <origin>/export}. A checkpoint of another tenant's log, or a manifest signature, can never verify as this
 * log's checkpoint.
 *
 * <p>Derivation: HKDF-SHA256 (RFC 5869), salt {@value #SALT}, input key material the 32-byte master seed, info
 * {@code <purpose>\n<key name>} (purpose {@code checkpoint} or {@code manifest}); the 32 bytes out are the Ed25519
 * seed.
 */
public record LogKeys(String origin, NoteSigner checkpoint, NoteSigner manifest) {
    public static final String SALT = "cloakgate/ledger-key/v1";
    /** The one key name of the scheme before per-log keys: the master key itself signed everything under it. */
    public static final String LEGACY_KEY_NAME = "cloakgate";

    public static LogKeys derive(Ed25519SigningKey master, String origin) {
        String manifestName = manifestKeyName(origin);
        return new LogKeys(origin, new NoteSigner(origin, derive(master, "checkpoint", origin)),
                new NoteSigner(manifestName, derive(master, "manifest", manifestName)));
    }

    public static String manifestKeyName(String origin) {
        return origin + "/export";
    }

    /** The signer of the scheme before per-log keys: the master key under {@value #LEGACY_KEY_NAME}. */
    public static NoteSigner legacy(Ed25519SigningKey master) {
        return new NoteSigner(LEGACY_KEY_NAME, master);
    }

    static Ed25519SigningKey derive(Ed25519SigningKey master, String purpose, String keyName) {
        byte[] ikm = master.seed();
        byte[] out = new byte[Ed25519SigningKey.SEED_LENGTH];
        try {
            HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
            hkdf.init(new HKDFParameters(ikm, SALT.getBytes(StandardCharsets.UTF_8),
                    (purpose + "\n" + keyName).getBytes(StandardCharsets.UTF_8)));
            hkdf.generateBytes(out, 0, out.length);
            return Ed25519SigningKey.fromSeed(out);
        } finally {
            Arrays.fill(ikm, (byte) 0);
            Arrays.fill(out, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "LogKeys[" + checkpoint.verifier().encoded() + ", " + manifest.verifier().encoded() + "]";
    }
}
