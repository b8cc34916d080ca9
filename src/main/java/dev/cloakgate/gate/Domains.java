package dev.cloakgate.gate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.crypto.Jcs;

/**
 * The domain strings of the gate's hashes, in one place. Each hash is SHA-256 over a domain string, a newline and
 * the RFC 8785 bytes of a value: the domain keeps a hash of one kind of thing from ever being read as another (a
 * contract's hash as a release's, a call's fingerprint as an operation id). The strings are the seed's (cloakpipe),
 * so receipts and fingerprints made by its tooling mean the same here.
 */
public final class Domains {
    public static final String RELEASE = "cloakpipe.co/release/v1";
    public static final String TOOL_CONTRACT = "cloakpipe.co/tool-contract/v1";
    public static final String TOOL_CALL = "cloakpipe.co/tool-call/v1";
    public static final String OPERATION = "cloakpipe.co/operation/v1";

    private Domains() {
    }

    /** SHA-256(domain || "\n" || JCS(value)), lower-case hex. */
    public static String hash(String domain, JsonNode value) {
        return hash(domain, Jcs.canonicalize(value));
    }

    /** SHA-256(domain || "\n" || bytes), lower-case hex. */
    public static String hash(String domain, byte[] bytes) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(domain.getBytes(StandardCharsets.UTF_8));
            d.update((byte) '\n');
            d.update(bytes);
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
