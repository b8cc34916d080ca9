package dev.cloakgate.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A witness's Ed25519 cosigning key (C2SP tlog-cosignature, cosignature/v1, signature type 0x04): a name, the key
 * ID SHA-256(name || 0x0A || 0x04 || public key)[:4] and the key. Its text form is the verifier key
 * {@code <name>+<8 hex digit key ID>+<base64(0x04 || public key)>}.
 *
 * <p>A cosignature is a signed-note signature line {@code — <name> base64(key ID || timestamp || signature)}: the
 * timestamp 8 bytes big-endian (POSIX seconds), the Ed25519 signature over {@code cosignature/v1\n}, {@code time
 * <timestamp>\n} and the whole checkpoint text. The message does not commit to the witness's name, which is why
 * the key, not the name, is what an auditor pins.
 */
public record WitnessKey(String name, KeyId keyId, Ed25519PublicKey publicKey) {

    /** C2SP signed-note signature type of a timestamped Ed25519 checkpoint cosignature. */
    public static final byte COSIGNATURE_V1 = 0x04;
    private static final int TIMESTAMP_BYTES = 8;
    private static final String EM_DASH = "\u2014 ";

    public WitnessKey {
        NoteVerifier.checkKeyName(name);
        if (!keyId.equals(KeyId.of(name, COSIGNATURE_V1, publicKey))) {
            throw new IllegalArgumentException("key ID " + keyId + " does not belong to cosigning key " + name
                    + " (its ID is " + KeyId.of(name, COSIGNATURE_V1, publicKey) + ")");
        }
    }

    public static WitnessKey of(String name, Ed25519PublicKey publicKey) {
        return new WitnessKey(name, KeyId.of(name, COSIGNATURE_V1, publicKey), publicKey);
    }

    /** Parses a cosignature/v1 verifier key; the exception says what part is wrong. */
    public static WitnessKey parse(String vkey) {
        VerifierKeyText v = VerifierKeyText.parse(vkey, COSIGNATURE_V1, "a witness key");
        return new WitnessKey(v.name(), v.keyId(), v.publicKey());
    }

    public String encoded() {
        return VerifierKeyText.encode(name, keyId, COSIGNATURE_V1, publicKey);
    }

    /** The bytes a cosignature/v1 signs: header line, time line, then the checkpoint text with its final newline. */
    public static byte[] message(String checkpointText, long timestamp) {
        return ("cosignature/v1\ntime " + Long.toUnsignedString(timestamp) + "\n" + checkpointText)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Whether a signature line's name and key ID are this key's (the signed-note rule: both, not one). */
    public boolean names(String lineName, KeyId lineId) {
        return name.equals(lineName) && keyId.equals(lineId);
    }

    /** What checking one cosignature found. */
    public sealed interface Check {
        record Valid(long timestamp) implements Check {
        }

        record Invalid(String reason) implements Check {
        }
    }

    /**
     * Checks a note signature line ({@code — <name> <base64>}, without its newline) if it is this key's: null when
     * the line names another key or is not a signature line at all (a reader of the whole note reports those), else
     * what {@link #verify} finds.
     */
    public Check check(String checkpointText, String signatureLine) {
        if (!signatureLine.startsWith(EM_DASH)) {
            return null;
        }
        String[] parts = signatureLine.substring(EM_DASH.length()).split(" ", -1);
        if (parts.length != 2 || !parts[0].equals(name)) {
            return null;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(parts[1]);
        } catch (IllegalArgumentException e) {
            return new Check.Invalid("the signature is not base64");
        }
        if (decoded.length < 4 || !names(parts[0], KeyId.fromBytes(Arrays.copyOf(decoded, 4)))) {
            return null; // same name, another key ID: another key, ignored as signed-note says
        }
        if (!Base64.getEncoder().encodeToString(decoded).equals(parts[1])) {
            return new Check.Invalid("the signature is not canonical base64");
        }
        return verify(checkpointText, decoded);
    }

    /**
     * Checks the decoded signature of a line {@link #names} matched: key ID, timestamp (1..2^63-1: the witness
     * protocol never omits it) and the Ed25519 signature over {@link #message}.
     */
    public Check verify(String checkpointText, byte[] idAndSignature) {
        if (idAndSignature.length != 4 + TIMESTAMP_BYTES + Ed25519PublicKey.SIGNATURE_LENGTH) {
            return new Check.Invalid(idAndSignature.length + " bytes, a cosignature/v1 is 76 (key ID, timestamp, signature)");
        }
        ByteBuffer b = ByteBuffer.wrap(idAndSignature);
        if (b.getInt() != keyId.value()) {
            return new Check.Invalid("key ID is not " + keyId);
        }
        long timestamp = b.getLong();
        if (timestamp <= 0) {
            return new Check.Invalid(timestamp == 0 ? "timestamp is zero" : "timestamp beyond 2^63-1");
        }
        byte[] signature = Arrays.copyOfRange(idAndSignature, 4 + TIMESTAMP_BYTES, idAndSignature.length);
        return publicKey.verify(message(checkpointText, timestamp), signature) ? new Check.Valid(timestamp)
                : new Check.Invalid("the Ed25519 signature does not verify");
    }
}
