package dev.cloakgate.policy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What changed between two definitions of a tool, structurally: which parts (name, title, description, each
 * inputSchema path, annotations) were added, removed or changed, as JSON pointers. Objects are compared key by
 * key, arrays and scalars as a whole. The texts themselves are not part of a change: an operator sees them side by
 * side with {@code pins diff}; the log and metrics get the pointers and kinds only, since descriptions are written
 * by the upstream.
 */
public final class DefinitionDiff {
    public enum Kind {
        ADDED, REMOVED, CHANGED;

        public String code() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One changed part. {@code path} holds its keys and array indices from the definition's root; {@code positions}
     * the position of each key in its object (for {@link #safePointer()}), -1 for an index.
     */
    public record Change(Kind kind, List<String> path, List<Integer> positions) {
        public Change {
            path = List.copyOf(path);
            positions = List.copyOf(positions);
        }

        /** The RFC 6901 pointer, keys as the upstream wrote them: for the operator's own commands. */
        public String pointer() {
            StringBuilder b = new StringBuilder();
            for (String p : path) {
                b.append('/').append(p.replace("~", "~0").replace("/", "~1"));
            }
            return b.toString();
        }

        /**
         * The pointer as a log or a record may carry it: a key that is not plainly an identifier is named by its
         * position ({@code ~k2}), as {@link FindingDetail} writes pointers.
         */
        public String safePointer() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < path.size(); i++) {
                b.append('/').append(positions.get(i) < 0 ? path.get(i) : FindingDetail.segment(path.get(i), positions.get(i)));
            }
            return b.toString();
        }

        @Override
        public String toString() {
            return kind.code() + " " + safePointer();
        }
    }

    private DefinitionDiff() {
    }

    /** The changes from {@code before} to {@code after}, in document order; empty when they are equal. */
    public static List<Change> of(JsonNode before, JsonNode after) {
        List<Change> out = new ArrayList<>();
        walk(before, after, new ArrayList<>(), new ArrayList<>(), out);
        return out;
    }

    private static void walk(JsonNode a, JsonNode b, List<String> path, List<Integer> positions, List<Change> out) {
        boolean hasA = a != null && !a.isMissingNode();
        boolean hasB = b != null && !b.isMissingNode();
        if (!hasA && !hasB) {
            return;
        }
        if (!hasA || !hasB) {
            out.add(new Change(hasA ? Kind.REMOVED : Kind.ADDED, path, positions));
            return;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> keys = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(keys::add);
            b.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                path.add(k);
                positions.add(position(b.has(k) ? b : a, k));
                walk(a.get(k), b.get(k), path, positions, out);
                path.remove(path.size() - 1);
                positions.remove(positions.size() - 1);
            }
            return;
        }
        if (!a.equals(b)) {
            out.add(new Change(Kind.CHANGED, path, positions));
        }
    }

    private static int position(JsonNode object, String key) {
        int i = 0;
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); i++) {
            if (it.next().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /** At most {@code max} changes as the log writes them, with how many more there were. */
    public static String summary(List<Change> changes, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(max, changes.size()); i++) {
            b.append(i == 0 ? "" : ", ").append(changes.get(i));
        }
        if (changes.size() > max) {
            b.append(" and ").append(changes.size() - max).append(" more");
        }
        return b.toString();
    }
}
