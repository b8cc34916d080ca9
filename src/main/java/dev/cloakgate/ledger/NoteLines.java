package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Signature lines of a stored checkpoint note: a witness's cosignature added, or two signings of one tree size
 * merged. The text (origin, size, root) is never touched; signed-note verifiers skip lines of keys they do not know.
 */
final class NoteLines {
    private NoteLines() {
    }

    /** {@code note} with {@code line} appended, after dropping the lines {@code replaces} matches. */
    static byte[] withLine(byte[] note, String line, Predicate<String> replaces) {
        String whole = new String(note, StandardCharsets.UTF_8);
        int split = whole.lastIndexOf("\n\n");
        StringBuilder out = new StringBuilder(whole.substring(0, split + 2));
        for (String l : whole.substring(split + 2).split("\n")) {
            if (!l.isEmpty() && !replaces.test(l)) {
                out.append(l).append('\n');
            }
        }
        out.append(line).append('\n');
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One note holding the signature lines of both (stored ones first), or null when their texts differ: two
     * checkpoints of one size with different roots, a fork no store may paper over.
     */
    static byte[] merged(byte[] stored, byte[] offered) {
        String a = new String(stored, StandardCharsets.UTF_8);
        String b = new String(offered, StandardCharsets.UTF_8);
        int sa = a.lastIndexOf("\n\n");
        int sb = b.lastIndexOf("\n\n");
        if (sa < 0 || sb < 0 || !a.substring(0, sa).equals(b.substring(0, sb))) {
            return null;
        }
        Set<String> lines = new LinkedHashSet<>();
        for (String l : (a.substring(sa + 2) + b.substring(sb + 2)).split("\n")) {
            if (!l.isEmpty()) {
                lines.add(l);
            }
        }
        StringBuilder out = new StringBuilder(a.substring(0, sa + 2));
        lines.forEach(l -> out.append(l).append('\n'));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
