package dev.cloakgate.ledger;

import java.util.LinkedHashSet;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What {@link BundleVerifier} found in a bundle. {@code tenant}, {@code fromSeq} and {@code toSeq} are the
 * manifest's (null when it did not read); {@code entries} and {@code checkpoints} count what the bundle holds.
 * Valid exactly when no failure was found.
 */
public record VerifyReport(String tenant, Long fromSeq, Long toSeq, long entries, int checkpoints, List<String> trustedKeys,
        List<Failure> failures, String origin, boolean pinned, List<Rotation> rotations, WitnessCosignatures.Summary witnesses) {
    private static final ObjectMapper M = new ObjectMapper();

    /**
     * One thing wrong. {@code check} is a stable snake_case name; {@code part} the bundle part (null for the
     * bundle as a whole); {@code line}, {@code seq}, {@code size} where they apply. {@code detail} never quotes
     * entry content.
     */
    public record Failure(String check, String part, Long line, Long seq, Long size, String detail) {
    }

    /**
     * Issue 15: a key rotation followed from a trusted key: the {@code key_rotated} entry at {@code seq}, endorsed by
     * {@code fromKey}, made {@code toKey} (and its manifest key) trusted.
     */
    public record Rotation(long seq, String fromKey, String toKey) {
    }

    public VerifyReport {
        trustedKeys = List.copyOf(trustedKeys);
        failures = List.copyOf(failures);
        rotations = List.copyOf(rotations);
    }

    /** Without origin, pins or rotations (as before issue 15). */
    public VerifyReport(String tenant, Long fromSeq, Long toSeq, long entries, int checkpoints, List<String> trustedKeys,
            List<Failure> failures) {
        this(tenant, fromSeq, toSeq, entries, checkpoints, trustedKeys, failures, null, false, List.of(), null);
    }

    /** This report with {@code more} failures after its own (issue 15: what {@code --previous} found). */
    public VerifyReport withFailures(List<Failure> more) {
        List<Failure> all = new java.util.ArrayList<>(failures);
        all.addAll(more);
        return new VerifyReport(tenant, fromSeq, toSeq, entries, checkpoints, trustedKeys, all, origin, pinned, rotations,
                witnesses);
    }

    public boolean valid() {
        return failures.isEmpty();
    }

    /** The distinct check names that failed, in the order first found. */
    public List<String> checks() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        failures.forEach(f -> names.add(f.check()));
        return List.copyOf(names);
    }

    /** The report as indented JSON; absent values are left out. */
    public String toJson() {
        ObjectNode o = M.createObjectNode();
        o.put("valid", valid());
        o.put("tenant", tenant);
        o.put("origin", origin); // issue 15: which log was verified
        o.put("pinned", pinned); // whether --tenant or --origin said which log it must be
        o.put("from_seq", fromSeq);
        o.put("to_seq", toSeq);
        o.put("entries", entries);
        o.put("checkpoints", checkpoints);
        ArrayNode keys = o.putArray("trusted_keys");
        trustedKeys.forEach(keys::add);
        if (!rotations.isEmpty()) {
            ArrayNode followed = o.putArray("rotations_followed");
            rotations.forEach(r -> followed.addObject().put("seq", r.seq()).put("from_key", r.fromKey()).put("to_key", r.toKey()));
        }
        // ---- issue 15: what the pinned witnesses cosigned (only with --witness) ----
        if (witnesses != null) {
            ObjectNode w = o.putObject("witnesses");
            w.put("required", witnesses.required());
            ArrayNode pinnedWitnesses = w.putArray("pinned");
            witnesses.pinned().forEach(pinnedWitnesses::add);
            w.put("cosigned_checkpoints", witnesses.cosignedCheckpoints());
            w.put("last_checkpoint_size", witnesses.lastSize());
            ArrayNode by = w.putArray("last_checkpoint_cosigned_by");
            witnesses.lastCosignedBy().forEach(by::add);
        }
        ArrayNode list = o.putArray("failures");
        for (Failure f : failures) {
            ObjectNode j = list.addObject().put("check", f.check());
            if (f.part() != null) {
                j.put("part", f.part());
            }
            if (f.line() != null) {
                j.put("line", f.line());
            }
            if (f.seq() != null) {
                j.put("seq", f.seq());
            }
            if (f.size() != null) {
                j.put("size", f.size());
            }
            j.put("detail", f.detail());
        }
        try {
            return M.writerWithDefaultPrettyPrinter().writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serialises", e);
        }
    }
}
