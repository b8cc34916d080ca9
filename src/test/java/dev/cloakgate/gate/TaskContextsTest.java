package dev.cloakgate.gate;

import static dev.cloakgate.gate.GateKit.NOW;
import static dev.cloakgate.gate.GateKit.ORCHESTRATOR;
import static dev.cloakgate.gate.GateKit.SKEW;
import static dev.cloakgate.gate.GateKit.STRANGER;
import static dev.cloakgate.gate.GateKit.json;
import static dev.cloakgate.gate.GateKit.taskJson;
import static dev.cloakgate.gate.GateKit.trust;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Dsse;

class TaskContextsTest {
    private static final JsonNode CALL = json("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"review\"}}");

    private static String reason(TaskContexts.Outcome o) {
        return assertInstanceOf(TaskContexts.Refused.class, o).reason();
    }

    @Test
    void aSignedContextVerifiesAndBindsTheCall() {
        TaskContext ctx = GateKit.trustedContext();
        assertEquals("t-981", ctx.taskId());
        assertEquals(dev.cloakgate.crypto.SignerKeys.keyId(ORCHESTRATOR.publicKey()), ctx.signerKeyId());
        assertEquals("lead-42", ctx.value(List.of("record")).textValue());
        assertNull(ctx.value(List.of("record", "deeper")));
        assertNull(GateKit.crm().check("crm__patch", CALL, ctx));
        // the same call against another record is refused, naming the binding
        JsonNode other = ((ObjectNode) CALL.deepCopy()).put("record", "lead-43");
        assertEquals(new Violation("task_binding_mismatch", "spec.tools.crm__patch.arguments.record"),
                GateKit.crm().check("crm__patch", other, ctx));
    }

    @Test
    void aContextForgedWithAnUntrustedKeyNeverBindsAnything() {
        // the forger writes the context that would make its call pass: it is refused before it is read
        assertEquals("task_context_untrusted", reason(GateKit.context(STRANGER)));
        // and claiming the orchestrator's key id does not help: the signature does not verify under it
        Dsse.Envelope honest = TaskContexts.sign(taskJson(), NOW, Duration.ofHours(1), ORCHESTRATOR);
        Dsse.Envelope forged = Dsse.sign(honest.payloadType(), honest.payload(), honest.signatures().get(0).keyid(), STRANGER);
        assertEquals("task_context_untrusted", reason(TaskContexts.verify(forged.toJson(), trust(ORCHESTRATOR), NOW, SKEW)));
        // nor does altering a signed context
        byte[] altered = new String(honest.payload(), StandardCharsets.UTF_8).replace("lead-42", "lead-43")
                .getBytes(StandardCharsets.UTF_8);
        Dsse.Envelope tampered = new Dsse.Envelope(honest.payloadType(), altered, honest.signatures());
        assertEquals("task_context_untrusted", reason(TaskContexts.verify(tampered.toJson(), trust(ORCHESTRATOR), NOW, SKEW)));
    }

    @Test
    void validityIsCheckedWithTheSkewAllowance() {
        byte[] env = TaskContexts.sign(taskJson(), NOW, Duration.ofMinutes(10), ORCHESTRATOR).toJson();
        assertInstanceOf(TaskContexts.Verified.class, TaskContexts.verify(env, trust(ORCHESTRATOR), NOW.plusSeconds(620), SKEW));
        assertEquals("task_context_expired", reason(TaskContexts.verify(env, trust(ORCHESTRATOR), NOW.plusSeconds(631), SKEW)));
        assertInstanceOf(TaskContexts.Verified.class, TaskContexts.verify(env, trust(ORCHESTRATOR), NOW.minusSeconds(30), SKEW));
        assertEquals("task_context_expired", reason(TaskContexts.verify(env, trust(ORCHESTRATOR), NOW.minusSeconds(31), SKEW)));
        TaskContext ctx = ((TaskContexts.Verified) TaskContexts.verify(env, trust(ORCHESTRATOR), NOW, SKEW)).context();
        assertTrue(ctx.expiredAt(NOW.plusSeconds(631), SKEW));
    }

    @Test
    void unreadableContextsAreRefusedAsSuch() {
        assertEquals("task_context_unreadable", reason(TaskContexts.verify("not json".getBytes(), trust(ORCHESTRATOR), NOW, SKEW)));
        // signed, but no taskId: refused before it is used
        ObjectNode noTask = taskJson().without("taskId");
        assertThrows(IllegalArgumentException.class, () -> TaskContexts.sign(noTask, NOW, Duration.ofHours(1), ORCHESTRATOR));
        // another payload type under a valid signature is not a task context
        Dsse.Envelope other = Dsse.sign("application/json", "{}".getBytes(), "k", ORCHESTRATOR);
        assertEquals("task_context_unreadable", reason(TaskContexts.verify(other.toJson(), trust(ORCHESTRATOR), NOW, SKEW)));
        // an approval statement is not a task context, even signed by the orchestrator
        byte[] receipt = Approvals.issue(GateKit.RELEASE, "t", "0".repeat(64), null, null, "x", NOW, Duration.ofHours(1),
                ORCHESTRATOR).toJson();
        assertEquals("task_context_unreadable", reason(TaskContexts.verify(receipt, trust(ORCHESTRATOR), NOW, SKEW)));
    }

    @Test
    void theHeaderIsBase64OfTheEnvelopeAndBounded() {
        Dsse.Envelope env = TaskContexts.sign(taskJson(), NOW, Duration.ofHours(1), ORCHESTRATOR);
        String header = TaskContexts.headerValue(env);
        assertInstanceOf(TaskContexts.Verified.class, TaskContexts.verifyHeader(header, trust(ORCHESTRATOR), NOW, SKEW));
        String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(env.toJson());
        assertInstanceOf(TaskContexts.Verified.class, TaskContexts.verifyHeader(urlSafe, trust(ORCHESTRATOR), NOW, SKEW));
        assertEquals("task_context_unreadable", reason(TaskContexts.verifyHeader("%%%", trust(ORCHESTRATOR), NOW, SKEW)));
        assertEquals("task_context_unreadable", reason(TaskContexts.verifyHeader("A".repeat(TaskContexts.MAX_HEADER_CHARS + 4),
                trust(ORCHESTRATOR), NOW, SKEW)));
        assertEquals("task_context_unreadable", reason(TaskContexts.verifyHeader(null, trust(ORCHESTRATOR), NOW, SKEW)));
    }
}
