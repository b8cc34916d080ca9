package dev.cloakgate.gate;

import java.time.Instant;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;

/**
 * Certifies a release: the {@link CertificationStatement} about the manifest, signed as a DSSE envelope
 * (payload type {@value CertificationStatement#PAYLOAD_TYPE}, Ed25519, the signer's gate key id). What
 * {@code release certify} writes and {@link CertificationVerifier} reads.
 */
public final class CertificationIssuer {
    private CertificationIssuer() {
    }

    /** The envelope's JSON bytes for a certified statement about {@code manifest}. */
    public static byte[] certify(ReleaseManifest manifest, Ed25519SigningKey key, String environment, Instant notBefore,
            Instant notAfter, Instant certifiedAt) {
        return sign(CertificationStatement.certified(manifest, environment, notBefore, notAfter, certifiedAt), key);
    }

    /** The envelope's JSON bytes for {@code statement} (any decision: a test or a tool may state another). */
    public static byte[] sign(CertificationStatement statement, Ed25519SigningKey key) {
        return Dsse.sign(CertificationStatement.PAYLOAD_TYPE, statement.payload(), SignerKeys.keyId(key.publicKey()), key)
                .toJson();
    }
}
