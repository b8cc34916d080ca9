package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cloakgate.crypto.Ed25519PublicKey;
import dev.cloakgate.crypto.KeyId;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.NoteVerifier;

/**
 * The keys an offline verifier trusts, each given either as a verifier key {@code <name>+<keyid>+<base64(0x01 ||
 * key)>} (the signed-note ecosystem's form, as {@code ledger key --tenant T} prints it) or as {@code KEYID=HEX} (8
 * hex digits of C2SP key ID, 64 hex digits of Ed25519 public key). A key ID is a hash of key name and public key, so
 * {@code KEYID=HEX} needs no name: a note's signature line is trusted when its ID is one of these and hashes from the
 * line's own name and the key. A verifier key also pins the name: a line under another name is not this key's.
 */
public final class TrustedKeys {
    private static final String EM_DASH = "\u2014 ";

    private record Trusted(Ed25519PublicKey key, String name) {
    }

    private final Map<KeyId, Trusted> keys;

    private TrustedKeys(Map<KeyId, Trusted> keys) {
        this.keys = Collections.unmodifiableMap(keys);
    }

    /** The {@code KEYID=HEX} an auditor pins to trust what {@code signer} signs: the inverse of {@link #parse}. */
    public static String spec(NoteSigner signer) {
        return signer.keyId().hex() + "=" + HexFormat.of().formatHex(signer.verifier().publicKey().bytes());
    }

    /**
     * Parses verifier keys and {@code KEYID=HEX} specs; the exception says which one is wrong and what it should look
     * like.
     */
    public static TrustedKeys parse(List<String> specs) {
        Map<KeyId, Trusted> keys = new LinkedHashMap<>();
        for (String spec : specs) {
            Trusted t;
            KeyId keyId;
            if (spec.contains("+")) {
                NoteVerifier v;
                try {
                    v = NoteVerifier.parse(spec);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("a trusted key is a verifier key <name>+<key ID>+<base64 key> (as"
                            + " `ledger key --tenant T` prints it) or KEYID=HEX: " + e.getMessage() + " (got '" + spec + "')");
                }
                keyId = v.keyId();
                t = new Trusted(v.publicKey(), v.name());
            } else {
                int eq = spec.indexOf('=');
                String id = eq < 0 ? "" : spec.substring(0, eq).toLowerCase(java.util.Locale.ROOT);
                String key = eq < 0 ? "" : spec.substring(eq + 1).toLowerCase(java.util.Locale.ROOT);
                if (!id.matches("[0-9a-f]{8}") || !key.matches("[0-9a-f]{64}")) {
                    throw new IllegalArgumentException("a trusted key is a verifier key <name>+<key ID>+<base64 key> (as"
                            + " `ledger key --tenant T` prints it) or KEYID=HEX: 8 hex digits of key ID, '=', 64 hex digits"
                            + " of Ed25519 public key (got '" + spec + "')");
                }
                keyId = KeyId.fromBytes(HexFormat.of().parseHex(id));
                t = new Trusted(Ed25519PublicKey.of(HexFormat.of().parseHex(key)), null);
            }
            add(keys, keyId, t);
        }
        return new TrustedKeys(keys);
    }

    private static void add(Map<KeyId, Trusted> keys, KeyId keyId, Trusted t) {
        Trusted before = keys.get(keyId);
        if (before != null && !before.key().equals(t.key())) {
            throw new IllegalArgumentException("key ID " + keyId.hex() + " is given twice with different public keys");
        }
        if (before == null || before.name() == null) {
            keys.put(keyId, t); // a named form pins more than KEYID=HEX
        }
    }

    /** These keys and {@code more} (keys a verified rotation endorsed), each pinned to its name. */
    TrustedKeys with(List<NoteVerifier> more) {
        Map<KeyId, Trusted> out = new LinkedHashMap<>(keys);
        for (NoteVerifier v : more) {
            add(out, v.keyId(), new Trusted(v.publicKey(), v.name()));
        }
        return new TrustedKeys(out);
    }

    /** The trusted key IDs, hex, in the order given. */
    public List<String> ids() {
        return keys.keySet().stream().map(KeyId::hex).toList();
    }

    /** The trusted key with this ID, under this name, if it is trusted under it. */
    Optional<NoteVerifier> find(String name, KeyId id) {
        Trusted t = keys.get(id);
        if (t == null || t.name() != null && !t.name().equals(name)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new NoteVerifier(name, id, t.key()));
        } catch (IllegalArgumentException notThisKey) {
            return Optional.empty(); // same 4-byte ID under another name: not the trusted key
        }
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
            Optional<NoteVerifier> v = id == null ? Optional.empty() : find(parts[0], id);
            if (v.isPresent() && !out.contains(v.get())) {
                out.add(v.get());
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
