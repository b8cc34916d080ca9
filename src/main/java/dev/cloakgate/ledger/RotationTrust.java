package dev.cloakgate.ledger;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.KeyId;
import dev.cloakgate.crypto.NoteVerifier;
import dev.cloakgate.crypto.StrictJson;

/**
 * Follows key rotations for an auditor who pinned the old key: each {@code key_rotated} entry of the bundle whose
 * endorsement ({@link KeyRotation}) is signed by a key trusted so far makes the new checkpoint and manifest keys it
 * names trusted too, in entry order, so a chain of rotations is followed from the first pinned key. A rotation with
 * no endorsement extends nothing (the auditor pins both keys, as before); one whose endorsement a trusted key did
 * not sign is a failure, {@code key_rotation_invalid}. A key trusted only through a rotation counts on checkpoints
 * that cover its rotation entry, not on earlier ones. The entry itself is part of the chain the rest of the
 * verification checks, and the first checkpoint after it is co-signed by the old key.
 */
final class RotationTrust {
    private static final int MAX_LINE = 16 << 20;
    private static final byte[] MARK = "\"key_rotated\"".getBytes(StandardCharsets.UTF_8);

    /** A rotation followed: from which key to which, at which seq. */
    record Followed(long seq, String fromKey, String toKey) {
    }

    /**
     * @param from for each checkpoint key trusted only through a rotation, the smallest tree size it may sign: its
     *        rotation entry's seq + 1 (a key is trusted after its endorsement, not before)
     */
    record Outcome(TrustedKeys trusted, List<Followed> followed, List<VerifyReport.Failure> failures, Map<KeyId, Long> from) {
        /** The verifiers of a checkpoint note of tree size {@code size} that are in force at that size. */
        List<NoteVerifier> inForce(List<NoteVerifier> verifiers, long size) {
            return verifiers.stream().filter(v -> from.getOrDefault(v.keyId(), 0L) <= size).toList();
        }
    }

    private RotationTrust() {
    }

    static Outcome scan(ZipFile zip, ZipEntry entries, TrustedKeys pinned) {
        TrustedKeys trusted = pinned;
        List<Followed> followed = new ArrayList<>();
        List<VerifyReport.Failure> failures = new ArrayList<>();
        Map<KeyId, Long> from = new HashMap<>();
        if (entries == null) {
            return new Outcome(trusted, followed, failures, from);
        }
        try (InputStream in = zip.getInputStream(entries)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long number = 0;
            int b;
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    b = buf[i];
                    if (b != '\n') {
                        if (line.size() < MAX_LINE) {
                            line.write(b);
                        }
                        continue;
                    }
                    number++;
                    trusted = line(line.toByteArray(), number, trusted, followed, failures, from);
                    line.reset();
                }
            }
        } catch (IOException e) {
            // the main pass reports an unreadable part
        }
        return new Outcome(trusted, followed, failures, from);
    }

    private static TrustedKeys line(byte[] bytes, long number, TrustedKeys trusted, List<Followed> followed,
            List<VerifyReport.Failure> failures, Map<KeyId, Long> from) {
        if (!contains(bytes, MARK) || !(Jcs.parseStrict(bytes) instanceof StrictJson.Parsed p)) {
            return trusted;
        }
        KeyRotation.Claim claim = KeyRotation.read(p.value());
        if (claim == null) {
            return trusted;
        }
        Optional<NoteVerifier> old = trusted.find(claim.fromName(), claim.fromKey());
        if (old.isEmpty()) {
            return trusted; // not a key trusted here: nothing to follow from
        }
        long seq = p.value().path("seq").asLong(-1);
        if (!claim.endorsedBy(old.get())) {
            failures.add(new VerifyReport.Failure("key_rotation_invalid", BundleLayout.ENTRIES, number, seq < 0 ? null : seq,
                    null, "the endorsement of the new keys does not verify under the trusted key " + old.get().keyId()));
            return trusted;
        }
        followed.add(new Followed(seq, old.get().keyId().hex(), claim.checkpoint().keyId().hex()));
        if (trusted.find(claim.checkpoint().name(), claim.checkpoint().keyId()).isEmpty()) {
            from.put(claim.checkpoint().keyId(), seq + 1);
        }
        return trusted.with(List.of(claim.checkpoint(), claim.manifest()));
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
