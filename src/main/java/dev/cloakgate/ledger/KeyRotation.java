package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.KeyId;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.NoteVerifier;
import dev.cloakgate.crypto.SignedNote;

/**
 * The {@code key_rotated} entry and the endorsement that chains trust from the old checkpoint key to the new keys.
 *
 * <p>The endorsement is a signed note by the old checkpoint key whose text is the statement
 * <pre>
 * cloakgate/ledger-key-rotation/v1
 * origin &lt;origin&gt;
 * from &lt;old checkpoint verifier key&gt;
 * checkpoint &lt;new checkpoint verifier key&gt;
 * manifest &lt;new manifest verifier key&gt;
 * </pre>
 * Its first line is no origin of any ledger and its second is no tree size, so the signature can never be read as
 * a checkpoint's (nor a checkpoint's as an endorsement). The entry keeps the signature line's base64 in
 * {@code endorsement}; a verifier rebuilds the note from the entry's own fields.
 */
final class KeyRotation {
    static final String KIND = "key_rotated";
    static final String HEADER = "cloakgate/ledger-key-rotation/v1";

    /** A rotation entry's claim, as read from an entry: not yet verified. */
    record Claim(String fromName, KeyId fromKey, NoteVerifier checkpoint, NoteVerifier manifest, String endorsement) {
        String origin() {
            return checkpoint.name();
        }

        /** True when {@code old}, the key the claim names as the one rotated from, signed the endorsement. */
        boolean endorsedBy(NoteVerifier old) {
            if (endorsement == null || !old.name().equals(fromName) || !old.keyId().equals(fromKey)) {
                return false;
            }
            String note = statement(origin(), old, checkpoint, manifest) + "\n\u2014 " + old.name() + " " + endorsement + "\n";
            return SignedNote.open(note.getBytes(StandardCharsets.UTF_8), List.of(old)) instanceof NoteVerification.Verified;
        }
    }

    private KeyRotation() {
    }

    static String statement(String origin, NoteVerifier from, NoteVerifier checkpoint, NoteVerifier manifest) {
        return HEADER + "\norigin " + origin + "\nfrom " + from.encoded() + "\ncheckpoint " + checkpoint.encoded()
                + "\nmanifest " + manifest.encoded() + "\n";
    }

    /**
     * The entry body: {@code from_key} (and {@code from_key_name} when known), {@code to_key} and {@code key_name} of
     * the new checkpoint key, both new verifier keys, and, when the old key is at hand ({@code endorser}), its
     * endorsement of them.
     */
    static ObjectNode entry(KeyId fromKey, String fromName, LogKeys to, NoteSigner endorser) {
        ObjectNode e = JsonNodeFactory.instance.objectNode().put("kind", KIND)
                .put("from_key", fromKey.hex()).put("to_key", to.checkpoint().keyId().hex())
                .put("key_name", to.checkpoint().name());
        if (fromName != null) {
            e.put("from_key_name", fromName);
        }
        e.put("checkpoint_key", to.checkpoint().verifier().encoded()).put("manifest_key", to.manifest().verifier().encoded());
        if (endorser != null) {
            String note = SignedNote.sign(statement(to.origin(), endorser.verifier(), to.checkpoint().verifier(),
                    to.manifest().verifier()), List.of(endorser));
            String line = note.substring(note.lastIndexOf('\n', note.length() - 2) + 1, note.length() - 1);
            e.put("endorsement", line.substring(line.lastIndexOf(' ') + 1));
        }
        return e;
    }

    /** The claim of a {@code key_rotated} entry with an endorsement, or null (another kind, no endorsement, malformed). */
    static Claim read(JsonNode entry) {
        if (!KIND.equals(entry.path("kind").asText(null)) || !entry.path("endorsement").isTextual()) {
            return null;
        }
        try {
            NoteVerifier checkpoint = NoteVerifier.parse(entry.path("checkpoint_key").asText(""));
            NoteVerifier manifest = NoteVerifier.parse(entry.path("manifest_key").asText(""));
            String fromKey = entry.path("from_key").asText("");
            if (!manifest.name().equals(LogKeys.manifestKeyName(checkpoint.name())) || !fromKey.matches("[0-9a-f]{8}")
                    || !entry.path("from_key_name").isTextual()) {
                return null;
            }
            return new Claim(entry.get("from_key_name").asText(), KeyId.fromBytes(java.util.HexFormat.of().parseHex(fromKey)),
                    checkpoint, manifest, entry.get("endorsement").asText());
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }
}
