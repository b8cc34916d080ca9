package dev.cloakgate.crypto;

import java.util.Arrays;
import java.util.HexFormat;

import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/** An Ed25519 public key in its RFC 8032 encoding: 32 bytes. */
public final class Ed25519PublicKey {

    public static final int LENGTH = 32;
    public static final int SIGNATURE_LENGTH = 64;

    private final byte[] encoded;

    private Ed25519PublicKey(byte[] encoded) {
        this.encoded = encoded;
    }

    /** Refuses anything but 32 bytes; whether they are a point on the curve shows only when verifying. */
    public static Ed25519PublicKey of(byte[] encoded) {
        if (encoded.length != LENGTH) {
            throw new IllegalArgumentException("an Ed25519 public key is 32 bytes, not " + encoded.length);
        }
        return new Ed25519PublicKey(encoded.clone());
    }

    public byte[] bytes() {
        return encoded.clone();
    }

    /** RFC 8032 verification; false for a wrong-length signature or an encoding that is not a valid point. */
    public boolean verify(byte[] message, byte[] signature) {
        if (signature.length != SIGNATURE_LENGTH) {
            return false;
        }
        Ed25519Signer verifier = new Ed25519Signer();
        try {
            verifier.init(false, new Ed25519PublicKeyParameters(encoded, 0));
        } catch (IllegalArgumentException notAPoint) {
            return false;
        }
        verifier.update(message, 0, message.length);
        return verifier.verifySignature(signature);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Ed25519PublicKey that && Arrays.equals(encoded, that.encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return "Ed25519PublicKey[" + HexFormat.of().formatHex(encoded) + "]";
    }
}
