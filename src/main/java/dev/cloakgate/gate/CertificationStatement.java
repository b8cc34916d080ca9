package dev.cloakgate.gate;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;


/**
 * What a certification says: an in-toto Statement v1 whose subject is the release (manifest name, release hex) and
 * whose predicate gives the decision, the environment and the validity window. The payload is the statement's JCS
 * bytes, so one statement has one digest (what {@code revoked_statements} lists). Read strictly (the statement frame
 * by {@link InTotoStatement}): an unknown member, a second subject or a time that is not RFC 3339 UTC makes the
 * statement unreadable, never half-understood.
 */
public record CertificationStatement(String subjectName, String subjectSha256, String release, String decision,
        String environment, Instant notBefore, Instant notAfter, Instant certifiedAt) {
    public static final String STATEMENT_TYPE = InTotoStatement.TYPE;
    public static final String PREDICATE_TYPE = "https://cloakpipe.co/attestations/certification/v1alpha1";
    public static final String PAYLOAD_TYPE = InTotoStatement.PAYLOAD_TYPE;
    public static final String CERTIFIED = "certified";
    /** An environment name, as a tenant's {@code gate.environment} and {@code --environment} give it. */
    public static final Pattern ENVIRONMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");
    private static final Instant EARLIEST = Instant.EPOCH;
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");
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
        ObjectNode predicate = JsonNodeFactory.instance.objectNode()
                .put("release", release)
                .put("decision", decision)
                .put("environment", environment)
                .put("notBefore", notBefore.toString())
                .put("notAfter", notAfter.toString())
                .put("certifiedAt", certifiedAt.toString());
        return new InTotoStatement(subjectName, subjectSha256, PREDICATE_TYPE, predicate).toJson();
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
        InTotoStatement s = InTotoStatement.parse(payload, PREDICATE_TYPE);
        ObjectNode predicate = s.predicate();
        for (Iterator<String> it = predicate.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!PREDICATE.contains(k)) {
                throw new IllegalArgumentException("unknown member predicate." + k);
            }
        }
        Instant notBefore = time(predicate, "notBefore");
        Instant notAfter = time(predicate, "notAfter");
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("predicate.notAfter is not after predicate.notBefore");
        }
        return new CertificationStatement(s.subjectName(), s.subjectSha256(), text(predicate, "release"),
                text(predicate, "decision"), text(predicate, "environment"), notBefore, notAfter,
                time(predicate, "certifiedAt"));
    }

    private static String text(JsonNode predicate, String key) {
        try {
            return InTotoStatement.text(predicate, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("predicate." + e.getMessage());
        }
    }

    /** RFC 3339 in UTC ('Z'): an offset would be a second way to write the same instant. */
    private static Instant time(JsonNode predicate, String key) {
        String t = text(predicate, key);
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
