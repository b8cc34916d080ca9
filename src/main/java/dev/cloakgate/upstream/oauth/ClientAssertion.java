package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@code private_key_jwt} client assertion (RFC 7523 §2.2, RFC 7521): {@code iss} and {@code sub} the client
 * id, {@code aud} the authorization server's issuer, a minute's lifetime and a fresh {@code jti}, signed with the
 * key in a mounted PKCS#8 PEM file (read at each use, so a rotated Secret takes effect): ES256/384/512 for an EC
 * key, RS256 for an RSA key.
 */
public final class ClientAssertion {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClientAssertion() {
    }

    public static String create(Path keyFile, String clientId, String audience, Instant now) throws OAuthFailure {
        PrivateKey key = read(keyFile);
        String alg;
        String jca;
        int part = 0;
        if (key instanceof ECPrivateKey ec) {
            int bits = ec.getParams().getCurve().getField().getFieldSize();
            part = (bits + 7) / 8;
            alg = bits <= 256 ? "ES256" : bits <= 384 ? "ES384" : "ES512";
            jca = bits <= 256 ? "SHA256withECDSA" : bits <= 384 ? "SHA384withECDSA" : "SHA512withECDSA";
        } else {
            alg = "RS256";
            jca = "SHA256withRSA";
        }
        ObjectNode header = JSON.createObjectNode().put("alg", alg).put("typ", "JWT");
        ObjectNode claims = JSON.createObjectNode().put("iss", clientId).put("sub", clientId).put("aud", audience)
                .put("iat", now.getEpochSecond()).put("exp", now.getEpochSecond() + 60).put("jti", Pkce.random(16));
        String input = b64(header.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + b64(claims.toString().getBytes(StandardCharsets.UTF_8));
        try {
            Signature s = Signature.getInstance(jca);
            s.initSign(key);
            s.update(input.getBytes(StandardCharsets.US_ASCII));
            byte[] sig = s.sign();
            return input + "." + b64(part == 0 ? sig : jose(sig, part));
        } catch (GeneralSecurityException e) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "signing the client assertion failed (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static PrivateKey read(Path file) throws OAuthFailure {
        String pem;
        try {
            pem = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "cannot read private_key_file " + file + " (" + e.getClass().getSimpleName() + ")");
        }
        int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = pem.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "private_key_file " + file + " holds no PKCS#8 PEM key (BEGIN PRIVATE KEY)");
        }
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(begin + 27, end));
        for (String type : new String[] { "EC", "RSA" }) {
            try {
                return KeyFactory.getInstance(type).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this type: try the next
            }
        }
        throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                "private_key_file " + file + " is neither an EC nor an RSA key");
    }

    /** A DER ECDSA signature as JOSE wants it: r and s, each {@code part} bytes, concatenated. */
    static byte[] jose(byte[] der, int part) {
        int offset = der[1] == (byte) 0x81 ? 3 : 2;
        int rLen = der[offset + 1];
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(der, offset + 2, offset + 2 + rLen));
        int sOff = offset + 2 + rLen;
        int sLen = der[sOff + 1];
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(der, sOff + 2, sOff + 2 + sLen));
        byte[] out = new byte[2 * part];
        fixed(r, out, 0, part);
        fixed(s, out, part, part);
        return out;
    }

    private static void fixed(BigInteger v, byte[] out, int at, int len) {
        byte[] b = v.toByteArray();
        int from = Math.max(0, b.length - len);
        System.arraycopy(b, from, out, at + len - (b.length - from), b.length - from);
    }

    private static String b64(byte[] b) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
