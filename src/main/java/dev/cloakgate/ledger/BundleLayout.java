package dev.cloakgate.ledger;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Names of an export bundle's parts, kept in one place so the writer and the verifier cannot drift apart. */
final class BundleLayout {
    static final String ENTRIES = "entries.jsonl";
    static final String PROOFS = "proofs.json";
    static final String MANIFEST = "manifest.note";
    static final String ORIGIN_PREFIX = "cloakgate/ledger/";

    // zero-padded so the parts sort by size in any zip listing
    private static final Pattern CHECKPOINT = Pattern.compile("checkpoints/([0-9]{20})\\.note");

    private BundleLayout() {
    }

    static String checkpointPart(long size) {
        return String.format("checkpoints/%020d.note", size);
    }

    /** The tree size a checkpoint part's name claims, or -1 when the name is not a checkpoint part's. */
    static long checkpointSize(String partName) {
        Matcher m = CHECKPOINT.matcher(partName);
        if (!m.matches()) {
            return -1;
        }
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static String origin(String tenant) {
        return ORIGIN_PREFIX + tenant;
    }
}
