package dev.cloakgate.ledger;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;

/**
 * What an export bundle's signed {@code manifest.note} says: whose ledger, which entries, and the size and SHA-256
 * of every other part, so one signature covers the whole bundle. The note text is the manifest's RFC 8785 form
 * and a newline.
 */
record BundleManifest(String format, String tenant, String origin, long fromSeq, long toSeq, String created, List<Part> parts) {
    static final String FORMAT = "cloakgate-ledger-export/v1";
    // the members of format v1, no more (issue 15: the documented form, CanonicalParts)
    private static final java.util.Set<String> MEMBERS = java.util.Set.of("format", "tenant", "origin", "from_seq", "to_seq",
            "created", "parts");
    private static final java.util.Set<String> PART_MEMBERS = java.util.Set.of("name", "bytes", "sha256");
    private static final ObjectMapper M = new ObjectMapper();

    record Part(String name, long bytes, String sha256) {
    }

    BundleManifest {
        parts = List.copyOf(parts);
    }

    String text() {
        ObjectNode o = M.createObjectNode();
        o.put("format", format).put("tenant", tenant).put("origin", origin).put("from_seq", fromSeq).put("to_seq", toSeq)
                .put("created", created);
        ArrayNode list = o.putArray("parts");
        for (Part p : parts) {
            list.addObject().put("name", p.name()).put("bytes", p.bytes()).put("sha256", p.sha256());
        }
        return new String(Jcs.canonicalize(o), StandardCharsets.UTF_8) + "\n";
    }

    /** Reads a manifest text; the exception's message names every reason it is refused. */
    static BundleManifest parse(String text) {
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("manifest text does not end in a newline");
        }
        StrictJson read = Jcs.parseStrict(text.substring(0, text.length() - 1).getBytes(StandardCharsets.UTF_8));
        if (read instanceof StrictJson.Rejected r) {
            throw new IllegalArgumentException("manifest text is not strict JSON: " + CanonicalParts.defects(r.defects()));
        }
        if (!(read instanceof StrictJson.Parsed parsed) || !parsed.value().isObject()) {
            throw new IllegalArgumentException("manifest text is not one strict JSON object");
        }
        JsonNode o = parsed.value();
        List<String> reasons = new ArrayList<>();
        if (CanonicalParts.unknownMembers(o, MEMBERS) > 0) {
            reasons.add(CanonicalParts.unknownMembers(o, MEMBERS) + " member(s) that format v1 does not have");
        }
        String format = text(o, "format", reasons);
        if (format != null && !FORMAT.equals(format)) {
            reasons.add("format is not " + FORMAT);
        }
        String tenant = text(o, "tenant", reasons);
        String origin = text(o, "origin", reasons);
        if (tenant != null && origin != null && !BundleLayout.isOriginOf(origin, tenant)) {
            reasons.add("origin is not <log identity>/ledger/<tenant>");
        }
        long from = count(o, "from_seq", reasons);
        long to = count(o, "to_seq", reasons);
        if (from >= 0 && to >= 0 && to < from) {
            reasons.add("to_seq is before from_seq");
        }
        String created = text(o, "created", reasons);
        List<Part> parts = new ArrayList<>();
        if (!o.path("parts").isArray()) {
            reasons.add("parts missing or not an array");
        } else {
            for (JsonNode p : o.get("parts")) {
                List<String> partReasons = new ArrayList<>();
                if (CanonicalParts.unknownMembers(p, PART_MEMBERS) > 0) {
                    partReasons.add("a member that format v1 does not have");
                }
                String name = text(p, "name", partReasons);
                long bytes = count(p, "bytes", partReasons);
                String sha = text(p, "sha256", partReasons);
                if (sha != null && !sha.matches("[0-9a-f]{64}")) {
                    partReasons.add("sha256 is not 64 lower-case hex digits");
                }
                if (partReasons.isEmpty()) {
                    parts.add(new Part(name, bytes, sha));
                } else {
                    reasons.add("part " + parts.size() + ": " + String.join(", ", partReasons));
                }
            }
        }
        if (!reasons.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", reasons));
        }
        return new BundleManifest(format, tenant, origin, from, to, created, parts);
    }

    private static String text(JsonNode o, String field, List<String> reasons) {
        if (!o.path(field).isTextual()) {
            reasons.add(field + " missing or not a string");
            return null;
        }
        return o.get(field).asText();
    }

    private static long count(JsonNode o, String field, List<String> reasons) {
        JsonNode n = o.path(field);
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
            reasons.add(field + " missing or not a non-negative integer");
            return -1;
        }
        return n.asLong();
    }
}
