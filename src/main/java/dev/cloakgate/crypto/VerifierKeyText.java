package dev.cloakgate.crypto;

import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The text form of a C2SP signed-note verifier key, {@code <name>+<8 hex digit key ID>+<base64(type || key)>}, read
 * for one signature type with a 32-byte Ed25519 key. The name holds no '+', but the base64 may: the text is split at
 * its first two '+' only.
 */
record VerifierKeyText(String name, KeyId keyId, Ed25519PublicKey publicKey) {

    /** @param what names the kind of key in messages ("a verifier key", "a witness key") */
    static VerifierKeyText parse(String vkey, byte type, String what) {
        String[] parts = vkey.split("\\+", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException(what + " is <name>+<key ID>+<key>");
        }
        if (!parts[1].matches("[0-9a-f]{8}")) {
            throw new IllegalArgumentException(what + "'s ID is 8 lower-case hex digits");
        }
        byte[] typed;
        try {
            typed = Base64.getDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + "'s key is base64");
        }
        if (typed.length != 1 + Ed25519PublicKey.LENGTH || typed[0] != type) {
            throw new IllegalArgumentException(what + " here is of signature type " + String.format("0x%02x", type)
                    + " with a 32-byte Ed25519 key (type " + (typed.length == 0 ? "none" : String.format("0x%02x", typed[0]))
                    + ", " + Math.max(0, typed.length - 1) + " bytes given)");
        }
        return new VerifierKeyText(parts[0], KeyId.fromBytes(HexFormat.of().parseHex(parts[1])),
                Ed25519PublicKey.of(Arrays.copyOfRange(typed, 1, typed.length)));
    }

    static String encode(String name, KeyId keyId, byte type, Ed25519PublicKey key) {
        byte[] typed = new byte[1 + Ed25519PublicKey.LENGTH];
        typed[0] = type;
        System.arraycopy(key.bytes(), 0, typed, 1, Ed25519PublicKey.LENGTH);
        return name + "+" + keyId.hex() + "+" + Base64.getEncoder().encodeToString(typed);
    }
}
