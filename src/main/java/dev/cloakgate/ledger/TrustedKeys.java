package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cloakgate.crypto.Ed25519PublicKey;
import dev.cloakgate.crypto.KeyId;
import dev.cloakgate.crypto.NoteVerifier;

/**
 * The keys an offline verifier trusts, given as {@code KEYID=HEX} (8 hex digits of C2SP key ID, 64 hex digits of
 * Ed25519 public key). A key ID is a hash of key name and public key, so no name is needed up front: a note's
 * signature line is trusted when its ID is one of these and hashes from the line's own name and the key.
 */
public final class TrustedKeys {
    private static final String EM_DASH = "\u2014 ";

    private final Map<KeyId, Ed25519PublicKey> keys;

    private TrustedKeys(Map<KeyId, Ed25519PublicKey> keys) {
        this.keys = Collections.unmodifiableMap(keys);
    }

    /** The {@code KEYID=HEX} an auditor pins to trust what {@code signer} signs: the inverse of {@link #parse}. */
    public static String spec(dev.cloakgate.crypto.NoteSigner signer) {
        return signer.keyId().hex() + "=" + HexFormat.of().formatHex(signer.verifier().publicKey().bytes());
    }

    /** Parses {@code KEYID=HEX} specs; the exception says which one is wrong and what it should look like. */
    public static TrustedKeys parse(List<String> specs) {
        Map<KeyId, Ed25519PublicKey> keys = new LinkedHashMap<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            String id = eq < 0 ? "" : spec.substring(0, eq).toLowerCase(java.util.Locale.ROOT);
            String key = eq < 0 ? "" : spec.substring(eq + 1).toLowerCase(java.util.Locale.ROOT);
            if (!id.matches("[0-9a-f]{8}") || !key.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException("a trusted key is KEYID=HEX: 8 hex digits of key ID, '=', 64 hex digits of"
                        + " Ed25519 public key (got '" + spec + "')");
            }
            KeyId keyId = KeyId.fromBytes(HexFormat.of().parseHex(id));
            Ed25519PublicKey pub = Ed25519PublicKey.of(HexFormat.of().parseHex(key));
            Ed25519PublicKey before = keys.putIfAbsent(keyId, pub);
            if (before != null && !before.equals(pub)) {
                throw new IllegalArgumentException("key ID " + id + " is given twice with different public keys");
            }
        }
        return new TrustedKeys(keys);
    }

    /** The trusted key IDs, hex, in the order given. */
    public List<String> ids() {
        return keys.keySet().stream().map(KeyId::hex).toList();
    }

    /**
     * Verifiers for the signature lines of {@code note} whose key is trusted here, each under the name its line
     * carries (the name is part of the key ID, so a line with another name does not match). Lines that do not
     * read are left to {@code SignedNote.open} to report.
     */
    List<NoteVerifier> verifiersFor(byte[] note) {
        String whole = new String(note, StandardCharsets.UTF_8);
        int split = whole.lastIndexOf("\n\n");
        List<NoteVerifier> out = new ArrayList<>();
        if (split < 0) {
            return out;
        }
        for (String line : whole.substring(split + 2).split("\n")) {
            String[] parts = line.startsWith(EM_DASH) ? line.substring(EM_DASH.length()).split(" ", -1) : new String[0];
            if (parts.length != 2) {
                continue;
            }
            KeyId id = keyIdOf(parts[1]);
            Ed25519PublicKey pub = id == null ? null : keys.get(id);
            if (pub == null) {
                continue;
            }
            try {
                NoteVerifier v = new NoteVerifier(parts[0], id, pub); // refuses a name the ID does not hash from
                if (!out.contains(v)) {
                    out.add(v);
                }
            } catch (IllegalArgumentException notThisKey) {
                // same 4-byte ID under another name: not the trusted key
            }
        }
        return out;
    }

    private static KeyId keyIdOf(String signature) {
        try {
            byte[] decoded = Base64.getDecoder().decode(signature);
            return decoded.length < 4 ? null : KeyId.fromBytes(java.util.Arrays.copyOf(decoded, 4));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
