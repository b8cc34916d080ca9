package dev.cloakgate.evidence;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How logs name a session: the first 8 bytes of its id's SHA-256. A session id is a bearer handle (whoever holds it
 * can use the session), so it never goes to a log; the id is 128 random bits, so its hash reveals nothing, and one
 * session's lines still read together.
 */
public final class LogTag {
    private LogTag() {
    }

    public static String of(String sessionId) {
        if (sessionId == null) {
            return "-";
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
