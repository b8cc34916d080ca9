package dev.cloakgate.upstream.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/** A PKCE pair (RFC 7636), S256 only: the verifier stays in the gateway, the challenge goes in the authorization URL. */
public record Pkce(String verifier, String challenge) {
    private static final SecureRandom RANDOM = new SecureRandom();

    public static Pkce create() {
        String verifier = random(32);
        return new Pkce(verifier, s256(verifier));
    }

    static String s256(String verifier) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code bytes} random bytes, base64url without padding (43 characters for 32). */
    static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    @Override
    public String toString() {
        return "Pkce[S256]"; // the verifier never reaches a log
    }
}
