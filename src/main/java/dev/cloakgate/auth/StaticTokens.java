package dev.cloakgate.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * A tenant's static bearer tokens as SHA-256 digests. A presented token is hashed once and compared with every
 * digest in constant time ({@link MessageDigest#isEqual}), with no early exit: how long a refusal takes does not
 * depend on how many leading bytes matched, nor on which tenant the token belongs to.
 */
final class StaticTokens {
    /** One token's digest and who holds it. */
    record Entry(byte[] digest, Principal owner) {
    }

    static final StaticTokens NONE = new StaticTokens(List.of());

    private final byte[][] digests;
    private final Principal[] owners;

    StaticTokens(List<Entry> entries) {
        digests = new byte[entries.size()][];
        owners = new Principal[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            digests[i] = entries.get(i).digest().clone();
            owners[i] = entries.get(i).owner();
        }
    }

    /** The principal holding the token of this digest, or null. */
    Principal match(byte[] presented) {
        Principal found = null;
        for (int i = 0; i < digests.length; i++) {
            if (MessageDigest.isEqual(presented, digests[i])) {
                found = owners[i];
            }
        }
        return found;
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
