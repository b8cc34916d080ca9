package dev.cloakgate.gate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.SignerKeys;

/**
 * Signing and verifying task contexts. A task context is a DSSE envelope ({@code application/vnd.in-toto+json})
 * holding an in-toto Statement v1 of {@link #PREDICATE_TYPE}: subject {@code task-context} with the SHA-256 of the
 * JCS of the context, predicate {@code {context, issuedAt, notAfter}}, the context a JSON object with a string
 * {@code taskId}. The orchestrator presents it base64-encoded in the {@link #HEADER} header at {@code initialize}.
 */
public final class TaskContexts {
    public static final String PREDICATE_TYPE = "https://cloakpipe.co/attestations/task-context/v1alpha1";
    public static final String HEADER = "Cloakgate-Task-Context";
    public static final String SUBJECT_NAME = "task-context";
    /** The longest header value read: base64 of a 12 KiB envelope, well inside an HTTP server's header limits. */
    public static final int MAX_HEADER_CHARS = 16 * 1024;
    /** A task id: short, printable, safe in a log line and an operation id's input. */
    public static final java.util.regex.Pattern TASK_ID = java.util.regex.Pattern.compile("[\\x21-\\x7e]{1,256}");
    private static final Set<String> PREDICATE = Set.of("context", "issuedAt", "notAfter");

    private TaskContexts() {
    }

    /** What verifying a presented task context gave. */
    public sealed interface Outcome permits Verified, Refused {
    }

    public record Verified(TaskContext context) implements Outcome {
    }

    /** {@code reason}: {@code task_context_unreadable}, {@code task_context_untrusted} or {@code task_context_expired}. */
    public record Refused(String reason, String detail) implements Outcome {
    }

    /** Signs {@code context} (a JSON object with a string {@code taskId}) valid from {@code issuedAt} for {@code validity}. */
    public static Dsse.Envelope sign(ObjectNode context, Instant issuedAt, Duration validity, Ed25519SigningKey key) {
        taskId(context);
        Instant at = issuedAt.truncatedTo(ChronoUnit.SECONDS);
        ObjectNode predicate = JsonNodeFactory.instance.objectNode();
        predicate.set("context", context.deepCopy());
        predicate.put("issuedAt", at.toString());
        predicate.put("notAfter", at.plus(validity).toString());
        byte[] statement = new InTotoStatement(SUBJECT_NAME, sha256(Jcs.canonicalize(context)), PREDICATE_TYPE, predicate)
                .toJson();
        return Dsse.sign(InTotoStatement.PAYLOAD_TYPE, statement, SignerKeys.keyId(key.publicKey()), key);
    }

    /** The header value for an envelope: standard base64 of its JSON. */
    public static String headerValue(Dsse.Envelope envelope) {
        return Base64.getEncoder().encodeToString(envelope.toJson());
    }

    /** The envelope bytes in a header value; empty when it is too long or not base64 (standard or URL-safe). */
    public static Optional<byte[]> decodeHeader(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_HEADER_CHARS) {
            return Optional.empty();
        }
        try {
            String v = value.strip();
            return Optional.of(v.indexOf('-') >= 0 || v.indexOf('_') >= 0 ? Base64.getUrlDecoder().decode(v)
                    : Base64.getDecoder().decode(v));
        } catch (IllegalArgumentException bad) {
            return Optional.empty();
        }
    }

    /** {@link #decodeHeader} then {@link #verify}: what the gateway does with the header at {@code initialize}. */
    public static Outcome verifyHeader(String value, SignerKeys orchestrators, Instant now, Duration skew) {
        Optional<byte[]> bytes = decodeHeader(value);
        if (bytes.isEmpty()) {
            return new Refused("task_context_unreadable", HEADER + " must be base64 of a DSSE envelope, at most "
                    + MAX_HEADER_CHARS + " characters");
        }
        return verify(bytes.get(), orchestrators, now, skew);
    }

    /**
     * Verifies an envelope: signed by one of {@code orchestrators} ({@code task_context_untrusted} otherwise, also for
     * a signature that does not verify), a well-formed statement ({@code task_context_unreadable}), and inside
     * {@code [issuedAt, notAfter]} widened by {@code skew} ({@code task_context_expired}). The signature is checked
     * before anything in the payload is believed.
     */
    public static Outcome verify(byte[] envelope, SignerKeys orchestrators, Instant now, Duration skew) {
        SignedStatement signed;
        try {
            signed = SignedStatement.open(envelope, orchestrators, PREDICATE_TYPE, "task_context");
        } catch (SignedStatement.NotAccepted refused) {
            return new Refused(refused.reason(), refused.getMessage());
        }
        InTotoStatement s = signed.statement();
        ObjectNode context;
        Instant issuedAt;
        Instant notAfter;
        try {
            PredicateFields.only(s.predicate(), PREDICATE);
            if (!(s.predicate().get("context") instanceof ObjectNode c)) {
                throw new IllegalArgumentException("context must be an object");
            }
            if (!SUBJECT_NAME.equals(s.subjectName()) || !sha256(Jcs.canonicalize(c)).equals(s.subjectSha256())) {
                throw new IllegalArgumentException("the subject is not the digest of the context");
            }
            context = c;
            taskId(context);
            issuedAt = PredicateFields.instant(s.predicate(), "issuedAt");
            notAfter = PredicateFields.instant(s.predicate(), "notAfter");
        } catch (IllegalArgumentException bad) {
            return new Refused("task_context_unreadable", bad.getMessage());
        }
        if (now.isAfter(notAfter.plus(skew))) {
            return new Refused("task_context_expired", "the task context expired at " + notAfter);
        }
        if (issuedAt.isAfter(now.plus(skew))) {
            return new Refused("task_context_expired", "the task context is issued in the future (" + issuedAt
                    + "), beyond the clock skew allowance");
        }
        return new Verified(new TaskContext(context.get("taskId").textValue(), context, issuedAt, notAfter, signed.keyId(),
                "sha256:" + sha256(envelope)));
    }

    /** The context's {@code taskId}, refused unless it is a short printable string. */
    public static String taskId(JsonNode context) {
        JsonNode id = context.get("taskId");
        if (id == null || !id.isTextual() || !TASK_ID.matcher(id.textValue()).matches()) {
            throw new IllegalArgumentException("the context must hold taskId: a string of 1 to 256 printable ASCII characters");
        }
        return id.textValue();
    }

    static String sha256(byte[] bytes) {
        return Domains.sha256(bytes);
    }

    static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }
}
