package dev.cloakgate.cluster;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The header a replica adds to a request it forwards to the session's owner: HMAC-SHA256 under the {@code peer-auth}
 * subkey over the forwarding replica, the method, the path, the session id, a timestamp and the SHA-256 of the body.
 * The owner accepts it within a small window around its own clock, so a captured forward cannot be replayed later
 * or re-aimed at another path, session or body. It proves a peer sent the request; it is not the agent's credential,
 * which travels with the forward and is checked by the owner as on a direct request.
 */
public final class PeerSignature {
    /** The header; a client's own copy is never forwarded, and one that does not verify is refused. */
    public static final String HEADER = "X-Cloakgate-Peer";
    private static final String VERSION = "v1";

    private final SecretKeySpec key;
    private final Clock clock;
    private final Duration window;

    public PeerSignature(ClusterKey key, Clock clock, Duration window) {
        this.key = new SecretKeySpec(key.subkey(ClusterKey.PEER_AUTH), "HmacSHA256");
        this.clock = clock;
        this.window = window;
    }

    /** What a forward is signed over. */
    public record Signed(String method, String path, String sessionId, byte[] body) {
    }

    /** The outcome of checking a forward's header. */
    public sealed interface Check permits Verified, Refused {
    }

    /** A peer replica, {@code from}, sent it. */
    public record Verified(String from) implements Check {
    }

    /** Not from a peer: {@code malformed}, {@code expired} (outside the window) or {@code mismatch}. */
    public record Refused(String reason) implements Check {
    }

    /** The header value for a forward by replica {@code from}. */
    public String sign(String from, Signed request) {
        long ts = clock.instant().getEpochSecond();
        return VERSION + ";" + from + ";" + ts + ";" + mac(from, ts, request);
    }

    /** Checks the header {@code value} of a request that arrived as {@code request}. */
    public Check verify(String value, Signed request) {
        String[] parts = value == null ? new String[0] : value.split(";", -1);
        if (parts.length != 4 || !VERSION.equals(parts[0]) || !ClusterSettings.REPLICA_ID.matcher(parts[1]).matches()
                || !parts[2].matches("[0-9]{1,12}") || !parts[3].matches("[A-Za-z0-9_-]{43}")) {
            return new Refused("malformed");
        }
        long ts = Long.parseLong(parts[2]);
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - ts) > window.toSeconds()) {
            return new Refused("expired");
        }
        byte[] expected = mac(parts[1], ts, request).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, parts[3].getBytes(StandardCharsets.US_ASCII))) {
            return new Refused("mismatch");
        }
        return new Verified(parts[1]);
    }

    private String mac(String from, long ts, Signed r) {
        try {
            String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(r.body()));
            // fields joined by a newline, which none of them can hold (header values and request lines cannot)
            String text = String.join("\n", "cloakgate/peer-auth/" + VERSION, from, r.method(), r.path(),
                    r.sessionId() == null ? "" : r.sessionId(), Long.toString(ts), digest);
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(key);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(m.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
