package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.cloakgate.crypto.WitnessKey;

/**
 * The witness requirement of {@code ledger verify --witness VKEY --min-witnesses N}: every cosignature line of a
 * pinned witness, in any checkpoint of the bundle, must verify ({@code witness_cosignature_invalid}); the bundle's
 * last checkpoint (the one that covers the last entry) must carry valid cosignatures of at least N distinct pinned
 * witnesses ({@code witnesses_insufficient}). Lines of keys not pinned are skipped, as signed-note says.
 */
public final class WitnessCosignatures {
    private final List<WitnessKey> pinned;
    private final int required;

    /** What was found, for the report. */
    public record Summary(int required, List<String> pinned, Long lastSize, List<String> lastCosignedBy, int cosignedCheckpoints) {
        public Summary {
            pinned = List.copyOf(pinned);
            lastCosignedBy = List.copyOf(lastCosignedBy);
        }
    }

    private WitnessCosignatures(List<WitnessKey> pinned, int required) {
        this.pinned = pinned;
        this.required = required;
    }

    /**
     * @param vkeys cosignature/v1 verifier keys ({@code <name>+<id>+<base64(0x04 || key)>})
     * @param required at least this many of them on the last checkpoint, 0..vkeys.size()
     */
    public static WitnessCosignatures parse(List<String> vkeys, int required) {
        List<WitnessKey> keys = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String v : vkeys) {
            WitnessKey k;
            try {
                k = WitnessKey.parse(v);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--witness " + v + ": " + e.getMessage());
            }
            if (!seen.add(k.name() + "+" + k.keyId().hex())) {
                throw new IllegalArgumentException("--witness " + v + " is given twice");
            }
            keys.add(k);
        }
        if (required < 0 || required > keys.size()) {
            throw new IllegalArgumentException("--min-witnesses " + required + " needs as many --witness keys (" + keys.size()
                    + " given)");
        }
        return new WitnessCosignatures(List.copyOf(keys), required);
    }

    /** One checkpoint part as the bundle holds it. */
    record Note(String part, long size, byte[] note) {
    }

    /**
     * Checks the checkpoints (smallest size first; the last is the one the requirement is about), adding failures to
     * {@code failures}.
     */
    Summary check(List<Note> checkpoints, List<VerifyReport.Failure> failures) {
        int cosignedCheckpoints = 0;
        List<String> lastBy = List.of();
        for (Note c : checkpoints) {
            Set<String> by = new LinkedHashSet<>();
            String whole = new String(c.note(), java.nio.charset.StandardCharsets.UTF_8);
            int split = whole.lastIndexOf("\n\n");
            if (split < 0) {
                continue; // checkpoint_malformed says so
            }
            String text = whole.substring(0, split + 1);
            for (String line : whole.substring(split + 2).split("\n")) {
                for (WitnessKey k : pinned) {
                    WitnessKey.Check check = k.check(text, line);
                    if (check instanceof WitnessKey.Check.Valid) {
                        by.add(k.name() + "+" + k.keyId().hex());
                    } else if (check instanceof WitnessKey.Check.Invalid bad) {
                        failures.add(new VerifyReport.Failure("witness_cosignature_invalid", c.part(), null, null, c.size(),
                                "the cosignature of pinned witness " + k.name() + " " + k.keyId() + " does not verify: "
                                        + bad.reason()));
                    }
                }
            }
            if (!by.isEmpty()) {
                cosignedCheckpoints++;
            }
            lastBy = List.copyOf(by);
        }
        Note last = checkpoints.isEmpty() ? null : checkpoints.get(checkpoints.size() - 1);
        if (lastBy.size() < required) {
            failures.add(new VerifyReport.Failure("witnesses_insufficient", last == null ? null : last.part(), null, null,
                    last == null ? null : last.size(), (last == null ? "no checkpoint to cosign"
                            : "the last checkpoint (tree size " + last.size() + ") carries valid cosignatures of " + lastBy.size())
                            + " pinned witness(es), " + required + " required"));
        }
        return new Summary(required, pinned.stream().map(k -> k.name() + "+" + k.keyId().hex()).toList(),
                last == null ? null : last.size(), lastBy, cosignedCheckpoints);
    }
}
