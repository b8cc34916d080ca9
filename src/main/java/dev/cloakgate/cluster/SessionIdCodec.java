package dev.cloakgate.cluster;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Session ids in cluster mode: AES-256-GCM under the {@code session-id} subkey, a random 96-bit nonce per id, of
 * the owning replica's id and 128 random bits, with the purpose and the tenant as associated data. So an id reveals
 * nothing (not even its owner), cannot be made or altered without the key, and an id issued for one tenant does not
 * open under another. Encoded {@code c1.} + base64url without padding: visible ASCII, as MCP requires of session ids.
 */
public final class SessionIdCodec {
    private static final String PREFIX = "c1.";
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final int RANDOM = 16;
    /** Longer than any id this codec makes (replica ids are at most 63 bytes): anything longer is not decoded. */
    private static final int MAX_CHARS = 160;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    public SessionIdCodec(ClusterKey key) {
        this.key = new SecretKeySpec(key.subkey(ClusterKey.SESSION_ID), "AES");
    }

    /** A new id of a session of {@code tenant} owned by {@code replica}. */
    public String issue(String tenant, String replica) {
        byte[] owner = replica.getBytes(StandardCharsets.US_ASCII);
        byte[] plain = new byte[1 + owner.length + RANDOM];
        plain[0] = (byte) owner.length;
        System.arraycopy(owner, 0, plain, 1, owner.length);
        byte[] part = new byte[RANDOM];
        random.nextBytes(part);
        System.arraycopy(part, 0, plain, 1 + owner.length, RANDOM);
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, nonce, tenant);
            byte[] sealed = c.doFinal(plain);
            byte[] out = new byte[NONCE + sealed.length];
            System.arraycopy(nonce, 0, out, 0, NONCE);
            System.arraycopy(sealed, 0, out, NONCE, sealed.length);
            return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    /**
     * The replica that owns session {@code id} of {@code tenant}; empty for anything this cluster did not issue for
     * that tenant: malformed, truncated, altered, forged, or another tenant's.
     */
    public Optional<String> owner(String tenant, String id) {
        if (id == null || id.length() > MAX_CHARS || !id.startsWith(PREFIX)) {
            return Optional.empty();
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(id.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (raw.length < NONCE + TAG_BITS / 8 + 1 + RANDOM) {
            return Optional.empty();
        }
        byte[] plain;
        try {
            Cipher c = cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(raw, NONCE), tenant);
            plain = c.doFinal(raw, NONCE, raw.length - NONCE);
        } catch (AEADBadTagException e) {
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
        int n = plain[0] & 0xff;
        if (plain.length != 1 + n + RANDOM) {
            return Optional.empty();
        }
        String replica = new String(plain, 1, n, StandardCharsets.US_ASCII);
        return ClusterSettings.REPLICA_ID.matcher(replica).matches() ? Optional.of(replica) : Optional.empty();
    }

    private Cipher cipher(int mode, byte[] nonce, String tenant) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        // the purpose and the tenant: an id is only ever an id of this tenant's sessions
        c.updateAAD(("cloakgate/session-id\n" + tenant).getBytes(StandardCharsets.UTF_8));
        return c;
    }
}
