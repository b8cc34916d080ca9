package dev.cloakgate.gate;

import static dev.cloakgate.gate.GateKit.APPROVER;
import static dev.cloakgate.gate.GateKit.NOW;
import static dev.cloakgate.gate.GateKit.RELEASE;
import static dev.cloakgate.gate.GateKit.SKEW;
import static dev.cloakgate.gate.GateKit.STRANGER;
import static dev.cloakgate.gate.GateKit.json;
import static dev.cloakgate.gate.GateKit.trust;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;

class ApprovalsTest {
    private static final String TOOL = "crm__patch";
    private static final JsonNode ARGS = json("{\"record\":\"lead-42\",\"patch\":{\"stage\":\"review\"}}");
    private static final String FP = CallFingerprint.of(RELEASE, TOOL, ARGS);

    @Test
    void theFingerprintIsTheDomainHashOfTheCallsJcs() {
        // computed by hand: sha256(b"cloakpipe.co/tool-call/v1\n" + sorted, compact JSON of the call)
        assertEquals("e40e7caee72444c2af58a85ef63fae00479d1d079a5a202db2a80c6ac9f4398e", FP);
        // key order and number spelling do not matter (JCS); one changed argument does
        assertEquals(FP, CallFingerprint.of(RELEASE, TOOL, json("{\"patch\":{\"stage\":\"review\"},\"record\":\"lead-42\"}")));
        assertNotEquals(FP, CallFingerprint.of(RELEASE, TOOL, json("{\"record\":\"lead-43\",\"patch\":{\"stage\":\"review\"}}")));
        assertNotEquals(FP, CallFingerprint.of(RELEASE, "crm__delete", ARGS));
        assertNotEquals(FP, CallFingerprint.of("sha256:" + "b".repeat(64), TOOL, ARGS));
        assertEquals(CallFingerprint.of(RELEASE, TOOL, json("{\"n\":1}")), CallFingerprint.of(RELEASE, TOOL, json("{\"n\":1.0}")));
        assertEquals(CallFingerprint.of(RELEASE, TOOL, json("{}")), CallFingerprint.of(RELEASE, TOOL, null));
    }

    @Test
    void theOperationIdIsDerivedAsTheSeedSays() {
        // sha256(b"cloakpipe.co/operation/v1\nt-981\n" + fingerprint hex)[:32], computed by hand (not JCS of a value)
        assertEquals("op-33bfbce24181cecefa590cb3d3cf2a28", OperationIds.derive("t-981", "0123456789abcdef".repeat(4)));
        assertNotEquals(OperationIds.derive("t-981", FP), OperationIds.derive("t-982", FP));
    }

    private static byte[] receipt(String fp, String taskId, Instant approvedAt, Duration validity, Ed25519SigningKey key) {
        return Approvals.issue(RELEASE, TOOL, fp, taskId, "op-given", "approver-1", approvedAt, validity, key).toJson();
    }

    private static ApprovalVerifier.Outcome verify(byte[] receipt, String taskId, Instant now) {
        return new ApprovalVerifier().verify(receipt, FP, RELEASE, TOOL, taskId, trust(APPROVER), now, SKEW);
    }

    private static String refused(ApprovalVerifier.Outcome o) {
        return assertInstanceOf(ApprovalVerifier.Refused.class, o).reason();
    }

    @Test
    void aValidReceiptApprovesItsCall() throws Exception {
        byte[] r = receipt(FP, "t-981", NOW, Duration.ofMinutes(15), APPROVER);
        ApprovalVerifier.Approved a = assertInstanceOf(ApprovalVerifier.Approved.class, verify(r, "t-981", NOW));
        assertEquals("op-given", a.operationId());
        assertEquals(SignerKeys.keyId(APPROVER.publicKey()), a.approverKeyId());
        assertEquals("sha256:" + HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(r)),
                a.envelopeDigest());
        // the statement is the seed's
        JsonNode st = GateKit.JSON.readTree(Dsse.Envelope.parse(r).payload());
        assertEquals("https://in-toto.io/Statement/v1", st.get("_type").textValue());
        assertEquals(Approvals.PREDICATE_TYPE, st.get("predicateType").textValue());
        assertEquals(json("[{\"name\":\"tool-call\",\"digest\":{\"sha256\":\"" + FP + "\"}}]"), st.get("subject"));
        assertEquals(java.util.Set.of("release", "tool", "taskId", "operationId", "approver", "approvedAt", "notAfter"),
                new java.util.HashSet<>(com.fasterxml.jackson.databind.node.ObjectNode.class.cast(st.get("predicate"))
                        .properties().stream().map(java.util.Map.Entry::getKey).toList()));
        // an operation id defaults to a fresh UUID v4
        byte[] fresh = Approvals.issue(RELEASE, TOOL, FP, null, null, "a", NOW, Duration.ofMinutes(1), APPROVER).toJson();
        String op = assertInstanceOf(ApprovalVerifier.Approved.class, verify(fresh, null, NOW)).operationId();
        assertEquals(4, java.util.UUID.fromString(op).version());
    }

    @Test
    void eachWayAReceiptFailsHasItsReason() {
        byte[] good = receipt(FP, "t-981", NOW, Duration.ofMinutes(15), APPROVER);
        String otherFp = CallFingerprint.of(RELEASE, TOOL, json("{\"record\":\"lead-43\",\"patch\":{\"stage\":\"review\"}}"));
        assertEquals("approval_mismatch", refused(new ApprovalVerifier().verify(good, otherFp, RELEASE, TOOL, "t-981",
                trust(APPROVER), NOW, SKEW)));
        assertEquals("approval_mismatch", refused(verify(receipt(otherFp, "t-981", NOW, Duration.ofMinutes(15), APPROVER), "t-981", NOW)));
        assertEquals("approval_expired", refused(verify(good, "t-981", NOW.plus(Duration.ofMinutes(15)).plus(SKEW).plusSeconds(1))));
        assertEquals("approval_expired", refused(verify(receipt(FP, "t-981", NOW.plusSeconds(31), Duration.ofMinutes(15), APPROVER),
                "t-981", NOW)));
        assertInstanceOf(ApprovalVerifier.Approved.class, verify(receipt(FP, "t-981", NOW.plusSeconds(30), Duration.ofMinutes(15),
                APPROVER), "t-981", NOW));
        assertEquals("approval_untrusted", refused(verify(receipt(FP, "t-981", NOW, Duration.ofMinutes(15), STRANGER), "t-981", NOW)));
        assertEquals("approval_mismatch", refused(verify(good, "t-982", NOW)));
        assertEquals("approval_mismatch", refused(verify(good, null, NOW)));
        assertEquals("approval_mismatch", refused(verify(receipt(FP, null, NOW, Duration.ofMinutes(15), APPROVER), "t-981", NOW)));
        assertEquals("approval_mismatch", refused(new ApprovalVerifier().verify(good, FP, "sha256:" + "b".repeat(64), TOOL,
                "t-981", trust(APPROVER), NOW, SKEW)));
        assertEquals("approval_mismatch", refused(new ApprovalVerifier().verify(good, FP, RELEASE, "crm__delete",
                "t-981", trust(APPROVER), NOW, SKEW)));
        assertEquals("approval_unreadable", refused(verify("{}".getBytes(StandardCharsets.UTF_8), "t-981", NOW)));
        // signed, but not an approval: unreadable as one
        byte[] ctx = TaskContexts.sign(GateKit.taskJson(), NOW, Duration.ofHours(1), APPROVER).toJson();
        assertEquals("approval_unreadable", refused(verify(ctx, "t-981", NOW)));
        // an altered receipt (operation id swapped) does not verify under the approver's key
        Dsse.Envelope e = Approvals.issue(RELEASE, TOOL, FP, "t-981", "op-given", "a", NOW, Duration.ofMinutes(15), APPROVER);
        byte[] swapped = new String(e.payload(), StandardCharsets.UTF_8).replace("op-given", "op-other").getBytes(StandardCharsets.UTF_8);
        assertEquals("approval_untrusted", refused(verify(new Dsse.Envelope(e.payloadType(), swapped, e.signatures()).toJson(),
                "t-981", NOW)));
        assertThrows(IllegalArgumentException.class, () -> Approvals.issue(RELEASE, TOOL, FP, null, "bad id", "a", NOW,
                Duration.ofMinutes(1), APPROVER));
    }

    @Test
    void aRememberedReceiptIsNotTrustedOnceItsKeyIsNoLongerAnApprover() {
        ApprovalVerifier verifier = new ApprovalVerifier();
        byte[] r = receipt(FP, "t-981", NOW, Duration.ofMinutes(15), APPROVER);
        assertInstanceOf(ApprovalVerifier.Approved.class, verifier.verify(r, FP, RELEASE, TOOL, "t-981", trust(APPROVER), NOW, SKEW));
        // the memo holds it; the approver set changes (a reload): checked again, and refused
        assertEquals("approval_untrusted", refused(verifier.verify(r, FP, RELEASE, TOOL, "t-981", trust(STRANGER), NOW, SKEW)));
        // and the memo never spares the checks that depend on the call or the clock
        assertEquals("approval_expired", refused(verifier.verify(r, FP, RELEASE, TOOL, "t-981", trust(APPROVER),
                NOW.plus(Duration.ofHours(1)), SKEW)));
        assertTrue(verifier.verify(r, FP, RELEASE, TOOL, "t-981", trust(APPROVER), NOW, SKEW) instanceof ApprovalVerifier.Approved);
    }
}
