package dev.cloakgate.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Keys that sign statements for the gate (releases, approvals, task contexts), given as {@code KEYID=HEX}: the key
 * id is the first 16 hex digits of SHA-256 of the 32-byte Ed25519 public key, HEX the key itself. The id is
 * derived, not chosen, so a pasted pair whose halves do not belong together is refused instead of trusted.
 */
public final class SignerKeys {
    private static final HexFormat HEX = HexFormat.of();
    private final Map<String, Ed25519PublicKey> keys;

    private SignerKeys(Map<String, Ed25519PublicKey> keys) {
        this.keys = Collections.unmodifiableMap(keys);
    }

    public static final SignerKeys NONE = new SignerKeys(Map.of());

    /** The key id of {@code key}: 16 lower-case hex digits. */
    public static String keyId(Ed25519PublicKey key) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(key.bytes())).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** {@code KEYID=HEX} for {@code key}, as a tenant file and {@code --trust-key} take it. */
    public static String spec(Ed25519PublicKey key) {
        return keyId(key) + "=" + HEX.formatHex(key.bytes());
    }

    /** Parses {@code KEYID=HEX} specs; the exception says which one is wrong and what it should look like. */
    public static SignerKeys parse(List<String> specs) {
        Map<String, Ed25519PublicKey> out = new LinkedHashMap<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            String id = eq < 0 ? "" : spec.substring(0, eq).toLowerCase(Locale.ROOT);
            String hex = eq < 0 ? "" : spec.substring(eq + 1).toLowerCase(Locale.ROOT);
            if (!id.matches("[0-9a-f]{16}") || !hex.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException("a signer key is KEYID=HEX: 16 hex digits of key id, '=', 64 hex digits"
                        + " of Ed25519 public key (as `release keygen` prints it)");
            }
            Ed25519PublicKey key = Ed25519PublicKey.of(HEX.parseHex(hex));
            if (!keyId(key).equals(id)) {
                throw new IllegalArgumentException("key id " + id + " does not belong to the key given with it (its id is "
                        + keyId(key) + ")");
            }
            out.put(id, key);
        }
        return new SignerKeys(out);
    }

    public Map<String, Ed25519PublicKey> asMap() {
        return keys;
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }
}
