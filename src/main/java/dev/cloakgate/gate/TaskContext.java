package dev.cloakgate.gate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The trusted description of the task an agent's session works on, as its orchestrator signed it (seed "Trusted task
 * context"). Only {@link TaskContexts#verify} makes one; nothing an agent sends in MCP messages can change it.
 *
 * @param context the orchestrator's JSON object (a private copy: never handed out for change)
 * @param signerKeyId the orchestrator key that signed it
 * @param envelopeDigest {@code sha256:<hex>} of the envelope bytes as presented, for evidence
 */
public record TaskContext(String taskId, ObjectNode context, Instant issuedAt, Instant notAfter, String signerKeyId,
        String envelopeDigest) {

    public TaskContext {
        context = context.deepCopy();
    }

    /** The value at {@code path} ({@code bindTo: task.a.b} is [a, b]), or null when any step is missing. */
    public JsonNode value(List<String> path) {
        JsonNode n = context;
        for (String step : path) {
            n = n.isObject() ? n.get(step) : null;
            if (n == null) {
                return null;
            }
        }
        return n;
    }

    /** Past {@code notAfter} by more than {@code skew}: a session outliving its task context stops being trusted. */
    public boolean expiredAt(Instant now, Duration skew) {
        return now.isAfter(notAfter.plus(skew));
    }

    @Override
    public ObjectNode context() {
        return context.deepCopy();
    }

    @Override
    public String toString() {
        // the context may describe a person's task: never printed whole
        return "TaskContext[taskId " + taskId.length() + " chars, signer " + signerKeyId + ", " + envelopeDigest + "]";
    }
}
