package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The hash that identifies a ledger entry and chains the next one to it: SHA-256 over the domain string
 * {@code cloakgate/ledger-entry/v1}, a newline, and the entry's exact RFC 8785 bytes. The domain string keeps an
 * entry hash from ever equalling the hash of anything else the project signs or digests.
 */
public final class EntryHash {
    public static final String DOMAIN = "cloakgate/ledger-entry/v1";
    /** {@code prev} of the first entry: 32 zero bytes. */
    public static final byte[] GENESIS = new byte[32];

    private EntryHash() {
    }

    public static byte[] of(byte[] jcs) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(DOMAIN.getBytes(StandardCharsets.US_ASCII));
            d.update((byte) '\n');
            return d.digest(jcs);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
