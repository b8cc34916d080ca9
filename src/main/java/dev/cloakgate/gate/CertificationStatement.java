package dev.cloakgate.gate;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;

/**
 * What a certification says: an in-toto Statement v1 whose subject is the release (manifest name, release hex) and
 * whose predicate gives the decision, the environment and the validity window. The payload is the statement's JCS
 * bytes, so one statement has one digest (what {@code revoked_statements} lists). Read strictly: an unknown member,
 * a second subject or a time that is not RFC 3339 UTC makes the statement unreadable, never half-understood.
 */
public record CertificationStatement(String subjectName, String subjectSha256, String release, String decision,
        String environment, Instant notBefore, Instant notAfter, Instant certifiedAt) {
    public static final String STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
    public static final String PREDICATE_TYPE = "https://cloakpipe.co/attestations/certification/v1alpha1";
    public static final String PAYLOAD_TYPE = "application/vnd.in-toto+json";
    public static final String CERTIFIED = "certified";
    /** An environment name, as a tenant's {@code gate.environment} and {@code --environment} give it. */
    public static final Pattern ENVIRONMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");
    private static final Instant EARLIEST = Instant.EPOCH;
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");
    private static final Set<String> TOP = Set.of("_type", "subject", "predicateType", "predicate");
    private static final Set<String> SUBJECT = Set.of("name", "digest");
    private static final Set<String> DIGEST = Set.of("sha256");
    private static final Set<String> PREDICATE = Set.of("release", "decision", "environment", "notBefore", "notAfter",
            "certifiedAt");

    /** A certified statement about {@code manifest}, its times to the second. */
    public static CertificationStatement certified(ReleaseManifest manifest, String environment, Instant notBefore,
            Instant notAfter, Instant certifiedAt) {
        if (!ENVIRONMENT.matcher(environment).matches()) {
            throw new IllegalArgumentException("an environment name matches " + ENVIRONMENT.pattern());
        }
        Instant from = notBefore.truncatedTo(ChronoUnit.SECONDS);
        Instant to = notAfter.truncatedTo(ChronoUnit.SECONDS);
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("notAfter (" + to + ") must be after notBefore (" + from + ")");
        }
        if (from.isBefore(EARLIEST) || to.isAfter(LATEST)) {
            throw new IllegalArgumentException("the validity window must lie within the years 1970 to 9999");
        }
        return new CertificationStatement(manifest.name(), manifest.releaseHex(), manifest.releaseHash(), CERTIFIED,
                environment, from, to, certifiedAt.truncatedTo(ChronoUnit.SECONDS));
    }

    /** The statement as the DSSE payload: its JCS bytes. */
    public byte[] payload() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode s = f.objectNode();
        s.put("_type", STATEMENT_TYPE);
        ObjectNode subject = s.putArray("subject").addObject();
        subject.put("name", subjectName);
        subject.putObject("digest").put("sha256", subjectSha256);
        s.put("predicateType", PREDICATE_TYPE);
        s.putObject("predicate")
                .put("release", release)
                .put("decision", decision)
                .put("environment", environment)
                .put("notBefore", notBefore.toString())
                .put("notAfter", notAfter.toString())
                .put("certifiedAt", certifiedAt.toString());
        return Jcs.canonicalize(s);
    }

    /**
     * {@code sha256:<hex>} of {@link #payload()}: the statement digest {@code revoked_statements} lists (for a statement
     * signed elsewhere, the verifier takes the digest of the payload bytes as signed).
     */
    public String digest() {
        return "sha256:" + Domains.sha256(payload());
    }

    /**
     * Reads a statement from a DSSE payload.
     *
     * @throws IllegalArgumentException saying which member is wrong (never quoting a value)
     */
    public static CertificationStatement parse(byte[] payload) {
        if (!(Jcs.parseStrict(payload) instanceof StrictJson.Parsed p) || !p.value().isObject()) {
            throw new IllegalArgumentException("the statement is not one strict JSON object");
        }
        JsonNode s = p.value();
        only(s, TOP, "");
        if (!STATEMENT_TYPE.equals(text(s, "_type", ""))) {
            throw new IllegalArgumentException("_type is not " + STATEMENT_TYPE);
        }
        if (!PREDICATE_TYPE.equals(text(s, "predicateType", ""))) {
            throw new IllegalArgumentException("predicateType is not " + PREDICATE_TYPE);
        }
        JsonNode subjects = s.get("subject");
        if (subjects == null || !subjects.isArray() || subjects.size() != 1 || !subjects.get(0).isObject()) {
            throw new IllegalArgumentException("subject must be a list of exactly one object (the release)");
        }
        JsonNode subject = subjects.get(0);
        only(subject, SUBJECT, "subject[0].");
        JsonNode digest = subject.get("digest");
        if (digest == null || !digest.isObject()) {
            throw new IllegalArgumentException("subject[0].digest must be an object");
        }
        only(digest, DIGEST, "subject[0].digest.");
        JsonNode predicate = s.get("predicate");
        if (predicate == null || !predicate.isObject()) {
            throw new IllegalArgumentException("predicate must be an object");
        }
        only(predicate, PREDICATE, "predicate.");
        Instant notBefore = time(predicate, "notBefore");
        Instant notAfter = time(predicate, "notAfter");
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("predicate.notAfter is not after predicate.notBefore");
        }
        return new CertificationStatement(text(subject, "name", "subject[0]."), text(digest, "sha256", "subject[0].digest."),
                text(predicate, "release", "predicate."), text(predicate, "decision", "predicate."),
                text(predicate, "environment", "predicate."), notBefore, notAfter, time(predicate, "certifiedAt"));
    }

    private static void only(JsonNode o, Set<String> allowed, String at) {
        for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException("unknown member " + at + k);
            }
        }
    }

    private static String text(JsonNode o, String key, String at) {
        JsonNode v = o.get(key);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(at + key + " must be a string");
        }
        return v.textValue();
    }

    /** RFC 3339 in UTC ('Z'): an offset would be a second way to write the same instant. */
    private static Instant time(JsonNode predicate, String key) {
        String t = text(predicate, key, "predicate.");
        if (!TIME.matcher(t).matches()) {
            throw new IllegalArgumentException("predicate." + key + " is not an RFC 3339 UTC time (2025-01-31T12:00:00Z)");
        }
        try {
            return Instant.parse(t);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("predicate." + key + " is not a valid time");
        }
    }
}
