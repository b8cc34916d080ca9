package dev.cloakgate.gate;

import static dev.cloakgate.gate.GateKit.APPROVER;
import static dev.cloakgate.gate.GateKit.NOW;
import static dev.cloakgate.gate.GateKit.RELEASE;
import static dev.cloakgate.gate.GateKit.SKEW;
import static dev.cloakgate.gate.GateKit.json;
import static dev.cloakgate.gate.GateKit.trust;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

class ActionBoundaryTest {
    private static final JsonNode PATCH = json("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"review\"}}");
    private final Map<String, byte[]> approvals = new HashMap<>();
    private final ActionBoundary boundary = new ActionBoundary(GateKit.crmSet(), trust(APPROVER), SKEW,
            Clock.fixed(NOW, ZoneOffset.UTC), fp -> Optional.ofNullable(approvals.get(fp)));

    private void approve(String tool, JsonNode args, String taskId, String operationId) {
        String fp = CallFingerprint.of(RELEASE, tool, args);
        approvals.put(fp, Approvals.issue(RELEASE, tool, fp, taskId, operationId, "ops", NOW, Duration.ofMinutes(15), APPROVER)
                .toJson());
    }

    @Test
    void aContractToolNeedingApprovalIsHeldUntilAReceiptForThisExactCallExists() {
        TaskContext ctx = GateKit.trustedContext();
        ActionBoundary.Held held = assertInstanceOf(ActionBoundary.Held.class, boundary.check(RELEASE, "crm__patch", PATCH, ctx, false));
        assertEquals(CallFingerprint.of(RELEASE, "crm__patch", PATCH), held.fingerprint());
        assertEquals("approval_required", held.reason());

        approve("crm__patch", PATCH, "t-981", "op-7");
        ActionBoundary.Pass pass = assertInstanceOf(ActionBoundary.Pass.class, boundary.check(RELEASE, "crm__patch", PATCH, ctx, false));
        assertEquals("op-7", pass.operationId());
        assertEquals("op-7", pass.approval().operationId());
        assertEquals("crm__patch", pass.rule().tool());

        // one argument changed: another fingerprint, no receipt for it
        JsonNode changed = json("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"qualified\"}}");
        assertInstanceOf(ActionBoundary.Held.class, boundary.check(RELEASE, "crm__patch", changed, ctx, false));
    }

    @Test
    void theContractIsCheckedBeforeAnyApproval() {
        approve("crm__patch", json("{\"tenant\":\"demo-co\",\"record\":\"lead-43\",\"patch\":{\"stage\":\"review\"}}"), "t-981", null);
        // an approver signed a call the task context does not allow: the binding still refuses it
        assertEquals(new ActionBoundary.Deny("task_binding_mismatch", "spec.tools.crm__patch.arguments.record"),
                boundary.check(RELEASE, "crm__patch", json("{\"tenant\":\"demo-co\",\"record\":\"lead-43\",\"patch\":"
                        + "{\"stage\":\"review\"}}"), GateKit.trustedContext(), false));
    }

    @Test
    void aSideEffectingToolWithoutATaskContextIsDenied() {
        ToolContract c = ToolContract.parse(GateKit.bytes("""
                apiVersion: cloakgate.dev/v1alpha1
                kind: ToolContract
                metadata: { name: pay }
                spec:
                  tools:
                    bank__pay:
                      sideEffect: true
                      arguments: { invoice: { type: string } }
                """), "pay.yaml");
        ActionBoundary b = new ActionBoundary(ContractSet.bind(List.of(c.reference()), List.of(c)), trust(APPROVER), SKEW,
                Clock.fixed(NOW, ZoneOffset.UTC), ReceiptLookup.NONE);
        JsonNode args = json("{\"invoice\":\"inv-1\"}");
        assertEquals(new ActionBoundary.Deny("task_context_missing", "spec.tools.bank__pay.sideEffect"),
                b.check(RELEASE, "bank__pay", args, null, false));
        // with one, the operation id is derived from the task and the fingerprint: the same call is the same operation
        TaskContext ctx = GateKit.trustedContext();
        ActionBoundary.Pass pass = assertInstanceOf(ActionBoundary.Pass.class, b.check(RELEASE, "bank__pay", args, ctx, false));
        String fp = CallFingerprint.of(RELEASE, "bank__pay", args);
        assertEquals(fp, pass.fingerprint());
        assertEquals(OperationIds.derive("t-981", fp), pass.operationId());
        assertNull(pass.approval());
    }

    @Test
    void aPolicyDemandedApprovalIsSatisfiedByTheSameReceipt() {
        // fs__delete is in no contract: release-gate behaviour, unless the policy (destructive_action) demands an approval
        JsonNode args = json("{\"path\":\"/data/report.txt\"}");
        ActionBoundary.Pass free = assertInstanceOf(ActionBoundary.Pass.class, boundary.check(RELEASE, "fs__delete", args, null, false));
        assertEquals(new ActionBoundary.Pass(null, null, null, null), free);
        ActionBoundary.Held held = assertInstanceOf(ActionBoundary.Held.class, boundary.check(RELEASE, "fs__delete", args, null, true));
        approve("fs__delete", args, null, "op-del");
        ActionBoundary.Pass pass = assertInstanceOf(ActionBoundary.Pass.class, boundary.check(RELEASE, "fs__delete", args, null, true));
        assertEquals(held.fingerprint(), pass.fingerprint());
        assertEquals("op-del", pass.operationId());
        // and on a contract tool both demands are met by the one receipt
        approve("crm__patch", PATCH, "t-981", null);
        assertInstanceOf(ActionBoundary.Pass.class, boundary.check(RELEASE, "crm__patch", PATCH, GateKit.trustedContext(), true));
    }

    @Test
    void refusedReceiptsAnExpiredContextAndAFailedLookupDeny() {
        TaskContext ctx = GateKit.trustedContext();
        approve("crm__patch", PATCH, "t-other", null);
        assertEquals(new ActionBoundary.Deny("approval_mismatch", null), boundary.check(RELEASE, "crm__patch", PATCH, ctx, false));
        ActionBoundary later = new ActionBoundary(GateKit.crmSet(), trust(APPROVER), SKEW,
                Clock.fixed(ctx.notAfter().plus(SKEW).plusSeconds(1), ZoneOffset.UTC), ReceiptLookup.NONE);
        assertEquals(new ActionBoundary.Deny("task_context_expired", null), later.check(RELEASE, "crm__search",
                json("{\"query\":\"x\"}"), ctx, false));
        ActionBoundary broken = new ActionBoundary(GateKit.crmSet(), trust(APPROVER), SKEW, Clock.fixed(NOW, ZoneOffset.UTC),
                fp -> {
                    throw new UncheckedIOException(new java.io.IOException("disk"));
                });
        assertEquals(new ActionBoundary.Deny("approval_unreadable", null), broken.check(RELEASE, "crm__patch", PATCH, ctx, false));
        // a contract tool without side effects or approval: checked, then passed with no operation
        ActionBoundary.Pass search = assertInstanceOf(ActionBoundary.Pass.class, boundary.check(RELEASE, "crm__search",
                json("{\"query\":\"lead\"}"), null, false));
        assertNull(search.operationId());
        assertTrue(search.rule() != null);
        assertEquals(new ActionBoundary.Deny("argument_length", "spec.tools.crm__search.arguments.query"),
                boundary.check(RELEASE, "crm__search", json("{\"query\":\"" + "x".repeat(101) + "\"}"), null, false));
    }
}
