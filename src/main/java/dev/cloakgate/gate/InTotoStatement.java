package dev.cloakgate.gate;

import java.util.Iterator;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;

/**
 * An in-toto Statement v1 with one subject, as the gate's signed documents (approval receipts, task contexts) carry
 * it inside a DSSE envelope of type {@link #PAYLOAD_TYPE}. Read strictly: unknown members, a second subject or a
 * digest other than sha256 are refused, so two readers cannot disagree on what was signed.
 */
public record InTotoStatement(String subjectName, String subjectSha256, String predicateType, ObjectNode predicate) {
    public static final String TYPE = "https://in-toto.io/Statement/v1";
    public static final String PAYLOAD_TYPE = "application/vnd.in-toto+json";
    private static final Set<String> KEYS = Set.of("_type", "subject", "predicateType", "predicate");
    private static final Set<String> SUBJECT_KEYS = Set.of("name", "digest");

    /** The statement's RFC 8785 bytes: the payload that is signed. */
    public byte[] toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("_type", TYPE);
        ObjectNode s = o.putArray("subject").addObject();
        s.put("name", subjectName);
        s.putObject("digest").put("sha256", subjectSha256);
        o.put("predicateType", predicateType);
        o.set("predicate", predicate);
        return Jcs.canonicalize(o);
    }

    /**
     * Reads a statement of {@code expectedPredicateType}.
     *
     * @throws IllegalArgumentException saying what is wrong, never quoting the statement
     */
    public static InTotoStatement parse(byte[] payload, String expectedPredicateType) {
        if (!(Jcs.parseStrict(payload) instanceof StrictJson.Parsed p) || !(p.value() instanceof ObjectNode o)) {
            throw new IllegalArgumentException("the statement is not one strict JSON object");
        }
        only(o, KEYS, "");
        if (!TYPE.equals(text(o, "_type"))) {
            throw new IllegalArgumentException("_type is not " + TYPE);
        }
        if (!expectedPredicateType.equals(text(o, "predicateType"))) {
            throw new IllegalArgumentException("predicateType is not " + expectedPredicateType);
        }
        JsonNode subjects = o.get("subject");
        if (subjects == null || !subjects.isArray() || subjects.size() != 1 || !(subjects.get(0) instanceof ObjectNode s)) {
            throw new IllegalArgumentException("subject must be an array of exactly one object");
        }
        only(s, SUBJECT_KEYS, "subject[0].");
        if (!(s.get("digest") instanceof ObjectNode d) || d.size() != 1 || !d.has("sha256")) {
            throw new IllegalArgumentException("subject[0].digest must be {\"sha256\": HEX} only");
        }
        String sha = text(d, "sha256");
        if (!sha.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("subject[0].digest.sha256 must be 64 lower-case hex digits");
        }
        if (!(o.get("predicate") instanceof ObjectNode predicate)) {
            throw new IllegalArgumentException("predicate must be an object");
        }
        return new InTotoStatement(text(s, "name"), sha, expectedPredicateType, predicate);
    }

    private static void only(ObjectNode o, Set<String> allowed, String at) {
        for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException("unknown member " + at + k);
            }
        }
    }

    static String text(JsonNode o, String key) {
        JsonNode v = o.get(key);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(key + " must be a string");
        }
        return v.textValue();
    }
}
