package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.NoteVerifier;
import dev.cloakgate.crypto.StrictJson;

/**
 * Which trusted keys may sign which part of a bundle, by key name ({@link LogKeys}): a checkpoint only its log's
 * checkpoint key, named as the checkpoint's origin; the manifest only the manifest key {@code <origin>/export} of the
 * manifest's origin. The legacy single key {@value LogKeys#LEGACY_KEY_NAME} signed both before per-log keys. So a
 * manifest signature offered as a checkpoint's, or a checkpoint key's on a manifest, is not the right key even when
 * the auditor trusts it for its own purpose.
 */
final class KeyPurpose {
    private KeyPurpose() {
    }

    /** The verifiers among {@code trusted} whose name may sign a checkpoint note; the origin is its first line. */
    static List<NoteVerifier> forCheckpoint(List<NoteVerifier> trusted, byte[] note) {
        String text = new String(note, StandardCharsets.UTF_8);
        int nl = text.indexOf('\n');
        String origin = nl < 0 ? "" : text.substring(0, nl);
        return trusted.stream().filter(v -> v.name().equals(origin) || v.name().equals(LogKeys.LEGACY_KEY_NAME)).toList();
    }

    /** The verifiers among {@code trusted} whose name may sign the manifest note: its origin's manifest key. */
    static List<NoteVerifier> forManifest(List<NoteVerifier> trusted, byte[] note) {
        String whole = new String(note, StandardCharsets.UTF_8);
        int split = whole.lastIndexOf("\n\n");
        String origin = null;
        if (split > 0 && Jcs.parseStrict(whole.substring(0, split).getBytes(StandardCharsets.UTF_8)) instanceof StrictJson.Parsed p
                && p.value().path("origin").isTextual()) {
            origin = p.value().get("origin").asText();
        }
        String name = origin == null ? null : LogKeys.manifestKeyName(origin);
        return trusted.stream().filter(v -> v.name().equals(name) || v.name().equals(LogKeys.LEGACY_KEY_NAME)).toList();
    }
}
