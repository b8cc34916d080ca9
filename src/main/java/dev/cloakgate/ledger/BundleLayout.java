package dev.cloakgate.ledger;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Names of an export bundle's parts, kept in one place so the writer and the verifier cannot drift apart. */
final class BundleLayout {
    static final String ENTRIES = "entries.jsonl";
    static final String PROOFS = "proofs.json";
    static final String MANIFEST = "manifest.note";
    /** Between the log identity and the tenant in every origin: {@code <identity>/ledger/<tenant>}. */
    static final String ORIGIN_INFIX = "/ledger/";

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

    /** Whether {@code origin} is a ledger origin of {@code tenant}: some log identity, then /ledger/tenant. */
    static boolean isOriginOf(String origin, String tenant) {
        return origin.endsWith(ORIGIN_INFIX + tenant) && origin.length() > (ORIGIN_INFIX + tenant).length();
    }

    /** The tenant a ledger origin names, or null when it is not {@code <identity>/ledger/<tenant>}. */
    static String tenantOf(String origin) {
        int at = origin.lastIndexOf(ORIGIN_INFIX);
        return at <= 0 || at + ORIGIN_INFIX.length() == origin.length() ? null : origin.substring(at + ORIGIN_INFIX.length());
    }
}
