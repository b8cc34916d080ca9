package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What an upstream's OAuth connection must outlive a restart with (the refresh token, a registered client and its
 * secret), encrypted at rest: one blob per tenant upstream ({@link ConnectionBlobs}: owner-only files under
 * {@code <data>/upstream-oauth/<tenant>/}, or the replicas' shared database), AES-256-GCM with a fresh 96-bit nonce
 * per write and associated data naming the tenant, the upstream and the purpose, so a blob copied to another upstream
 * does not decrypt. A blob that does not decrypt is
 * never used (the upstream then needs a new connection) and is reported by its code only. Access tokens are not
 * stored: they are short-lived and a refresh gets a new one.
 */
public final class TokenStore {
    private static final Logger LOG = Logger.getLogger(TokenStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte VERSION = 1;
    private static final String PURPOSE = "connection";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What is kept of a connection. {@link #toString()} shows no secret. */
    public record Saved(Client client, String issuer, String refreshToken, String scope) {
        @Override
        public String toString() {
            return "Saved[" + client + ", issuer=" + issuer + ", scope=" + scope + "]";
        }
    }

    /** A read: the saved connection, or why there is none (null code: nothing stored). */
    public record Read(Saved saved, String failure) {
    }

    private final ConnectionBlobs blobs;
    private final SecretKey key;
    private final SecretKey previous;

    /** Files under {@code root}. @param previous the key before a rotation (blobs under it are re-encrypted), or null */
    public TokenStore(Path root, SecretKey key, SecretKey previous) {
        this(new FileConnectionBlobs(root), key, previous);
    }

    /** @param previous the key before a rotation (blobs under it are re-encrypted under {@code key}), or null */
    public TokenStore(ConnectionBlobs blobs, SecretKey key, SecretKey previous) {
        this.blobs = blobs;
        this.key = key;
        this.previous = previous;
    }

    public Read load(String tenant, String upstream) {
        byte[] blob;
        try {
            java.util.Optional<byte[]> stored = blobs.read(tenant, upstream);
            if (stored.isEmpty()) {
                return new Read(null, null);
            }
            blob = stored.get();
        } catch (IOException e) {
            LOG.warnf("upstream %s/%s: its stored OAuth connection cannot be read (%s)", tenant, upstream,
                    e.getClass().getSimpleName());
            return new Read(null, "upstream_token_store_invalid");
        }
        byte[] plain = decrypt(key, blob, tenant, upstream);
        if (plain == null && previous != null) {
            plain = decrypt(previous, blob, tenant, upstream);
            if (plain != null) {
                Saved s = parse(plain);
                if (s != null) {
                    save(tenant, upstream, s); // rotated: from now on under the current key
                    LOG.infof("upstream %s/%s: stored OAuth connection re-encrypted under the current key", tenant, upstream);
                }
            }
        }
        Saved s = plain == null ? null : parse(plain);
        if (s == null) {
            LOG.warnf("upstream %s/%s: its stored OAuth connection does not decrypt (tampered, moved, or another key);"
                    + " it is not used: connect the upstream again", tenant, upstream);
            return new Read(null, "upstream_token_store_invalid");
        }
        return new Read(s, null);
    }

    public void save(String tenant, String upstream, Saved s) {
        ObjectNode o = JSON.createObjectNode();
        o.putObject("client").put("id", s.client().id()).put("secret", s.client().secret())
                .put("auth_method", s.client().authMethod()).put("how", s.client().how());
        o.put("issuer", s.issuer()).put("refresh_token", s.refreshToken()).put("scope", s.scope());
        byte[] nonce = new byte[12];
        RANDOM.nextBytes(nonce);
        byte[] sealed;
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            c.updateAAD(aad(tenant, upstream));
            sealed = c.doFinal(o.toString().getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
        byte[] blob = ByteBuffer.allocate(1 + nonce.length + sealed.length).put(VERSION).put(nonce).put(sealed).array();
        try {
            blobs.write(tenant, upstream, blob);
        } catch (IOException e) {
            // the connection still works until the gateway restarts; the log says so
            LOG.warnf("upstream %s/%s: storing its OAuth connection failed (%s); it will not survive a restart", tenant,
                    upstream, e.getClass().getSimpleName());
        }
    }

    public void delete(String tenant, String upstream) {
        try {
            blobs.delete(tenant, upstream);
        } catch (IOException e) {
            LOG.warnf("upstream %s/%s: deleting its stored OAuth connection failed (%s)", tenant, upstream,
                    e.getClass().getSimpleName());
        }
    }

    /** The file of a file-backed store (tests look at what reached the disk). */
    Path file(String tenant, String upstream) {
        return ((FileConnectionBlobs) blobs).file(tenant, upstream);
    }

    private static byte[] aad(String tenant, String upstream) {
        return ("cloakgate/upstream-oauth/v1\n" + tenant + "\n" + upstream + "\n" + PURPOSE)
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] decrypt(SecretKey k, byte[] blob, String tenant, String upstream) {
        if (blob.length < 1 + 12 + 16 || blob[0] != VERSION) {
            return null;
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, k, new GCMParameterSpec(128, blob, 1, 12));
            c.updateAAD(aad(tenant, upstream));
            return c.doFinal(blob, 13, blob.length - 13);
        } catch (GeneralSecurityException e) {
            return null;
        }
    }

    private static Saved parse(byte[] plain) {
        try {
            JsonNode o = JSON.readTree(plain);
            JsonNode c = o.path("client");
            if (!c.path("id").isTextual() || !o.path("issuer").isTextual()) {
                return null;
            }
            return new Saved(new Client(c.get("id").asText(), text(c, "secret"), text(c, "auth_method"),
                    text(c, "how")), o.get("issuer").asText(), text(o, "refresh_token"), text(o, "scope"));
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(JsonNode o, String k) {
        return o.path(k).isTextual() ? o.get(k).asText() : null;
    }
}
