package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.JsonDefect;

/**
 * Issue 15: the bundle parts LEDGER.md gives one byte form are refused in any other. {@code proofs.json} is exactly
 * the RFC 8785 (JCS) bytes of its JSON, nothing before or after; the manifest note's text is exactly the JCS bytes
 * of the manifest and one newline. A parser alone would take a pretty-printed or reordered manifest that the key
 * holder re-signed, and two verifiers could then disagree on what was signed; the one form leaves nothing to read
 * differently. A text that is not strict JSON at all is the part's {@code *_malformed} failure (with
 * {@link #defects}), not this one.
 */
final class CanonicalParts {
    static final String MANIFEST_NOT_CANONICAL = "manifest_not_canonical";
    static final String PROOFS_NOT_CANONICAL = "proofs_not_canonical";

    private CanonicalParts() {
    }

    /** The failure for a manifest note text that is strict JSON but not its one form; empty when it is that form. */
    static Optional<VerifyReport.Failure> manifest(String text) {
        if (!text.endsWith("\n")) {
            return Optional.empty(); // manifest_malformed says so
        }
        byte[] json = text.substring(0, text.length() - 1).getBytes(StandardCharsets.UTF_8);
        return notCanonical(json, MANIFEST_NOT_CANONICAL, BundleLayout.MANIFEST,
                "the manifest's text is not the RFC 8785 form of its JSON followed by one newline");
    }

    /** The failure for a {@code proofs.json} that is strict JSON but not its one form; empty when it is that form. */
    static Optional<VerifyReport.Failure> proofs(byte[] bytes) {
        return notCanonical(bytes, PROOFS_NOT_CANONICAL, BundleLayout.PROOFS,
                "proofs.json is not the RFC 8785 form of its JSON");
    }

    private static Optional<VerifyReport.Failure> notCanonical(byte[] json, String check, String part, String what) {
        List<JsonDefect> found = Jcs.check(json);
        if (found.size() != 1 || found.get(0).kind() != JsonDefect.Kind.NOT_CANONICAL) {
            return Optional.empty(); // canonical, or not strict JSON (the part's malformed check)
        }
        return Optional.of(new VerifyReport.Failure(check, part, null, null, null,
                what + " (it differs from " + found.get(0).where() + " on)"));
    }

    /**
     * How many members of {@code o} are not among {@code known} (0 for a non-object): a part of format v1 has exactly
     * its documented members, so nothing unsigned-for can ride along unread.
     */
    static int unknownMembers(com.fasterxml.jackson.databind.JsonNode o, java.util.Set<String> known) {
        int n = 0;
        for (java.util.Iterator<String> it = o.isObject() ? o.fieldNames() : java.util.Collections.emptyIterator(); it.hasNext();) {
            n += known.contains(it.next()) ? 0 : 1;
        }
        return n;
    }

    /**
     * Strict-JSON defects by kind and, for those in the text itself, offset: {@code duplicate_key, syntax at char 7}.
     * A pointer into the value is left out (it would quote member names).
     */
    static String defects(List<JsonDefect> defects) {
        return defects.stream().map(d -> d.kind().name().toLowerCase(Locale.ROOT)
                + (d.where().startsWith("char ") || d.where().startsWith("byte ") ? " at " + d.where() : ""))
                .collect(Collectors.joining(", "));
    }
}
