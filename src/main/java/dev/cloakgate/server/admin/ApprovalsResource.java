package dev.cloakgate.server.admin;

import java.time.Instant;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.cloakgate.auth.Role;
import dev.cloakgate.evidence.Event;
import dev.cloakgate.gate.ApprovalVerifier;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.store.ApprovalStore;
import dev.cloakgate.store.StoreException;

/**
 * Issue 11: an approver hands in a signed approval receipt (what {@code approve} writes) over HTTP. It is checked
 * before it is stored (signed by one of the tenant's approver keys, about the release the tenant serves, inside its
 * window), so nothing an approver's credential alone can send reaches the approvals directory; stored under its
 * subject, the call's fingerprint, it releases a call held for it under {@code approval_wait} at once. Each receipt
 * taken is an {@code approval_received} ledger entry naming the approver and the envelope's digest.
 */
@jakarta.ws.rs.Path("/admin/t/{tenant}/approvals")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "gate")
@SecurityRequirement(name = AdminApi.BEARER)
public class ApprovalsResource {
    private static final Logger LOG = Logger.getLogger(ApprovalsResource.class);

    /** The receipt as stored: the call it approves is named by its fingerprint, never by its arguments. */
    public record Stored(String fingerprint, @JsonProperty("operation_id") String operationId, String tool,
            String release, @JsonProperty("task_id") String taskId, @JsonProperty("not_after") Instant notAfter,
            String approval) {
    }

    @Inject
    Gateway gateway;

    @Inject
    AdminAccess access;

    @POST
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Hand in an approval receipt (approver)", description = "The body is the receipt envelope as"
            + " `approve` writes it (a DSSE envelope of an in-toto approval statement). It is stored under its subject,"
            + " the call's fingerprint, only when it is signed by one of the tenant's `approver_keys`, is about the"
            + " release the tenant serves and is inside its window; a call held for it (`approval_wait_seconds`) goes"
            + " on at once. An `approval_received` ledger entry names the approver.")
    @RequestBody(description = "the receipt envelope (JSON), at most 64 KiB")
    @APIResponse(responseCode = "201", description = "stored: its fingerprint, operation id, tool and release")
    @APIResponse(responseCode = "400", description = "approval_unreadable (not a receipt this gateway reads)")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the approver role)")
    @APIResponse(responseCode = "404", description = "no_gate")
    @APIResponse(responseCode = "413", description = "approval_too_large (over 64 KiB)")
    @APIResponse(responseCode = "422", description = "approval_untrusted (not signed by an approver key, or altered),"
            + " approval_mismatch (about another release), approval_expired")
    @APIResponse(responseCode = "500", description = "approvals_unavailable (the receipt could not be written)")
    public Response handIn(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization, byte[] body) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.APPROVER);
        String name = caller.tenant().name();
        TenantGate gate = GateOf.current(gateway, caller);
        ApprovalStore store = gate.approvals();
        if (store == null) {
            throw GateOf.noGate(caller);
        }
        if (body == null || body.length == 0) {
            throw new AdminRefusal(400, "approval_unreadable", "the body is the receipt envelope as `approve` writes it");
        }
        if (body.length > ApprovalStore.MAX_BYTES) {
            throw new AdminRefusal(413, "approval_too_large", "a receipt is at most " + ApprovalStore.MAX_BYTES + " bytes");
        }
        ApprovalVerifier.Handed checked = gate.receipt(body);
        if (checked instanceof ApprovalVerifier.Refused r) {
            LOG.infof("tenant %s: approver %s handed in a receipt that was refused (%s, %d bytes)", name, caller.name(),
                    r.reason(), body.length);
            throw new AdminRefusal("approval_unreadable".equals(r.reason()) ? 400 : 422, r.reason(), r.detail());
        }
        ApprovalVerifier.Receipt receipt = (ApprovalVerifier.Receipt) checked;
        try {
            store.put(receipt.fingerprint(), body);
        } catch (StoreException e) {
            LOG.errorf("tenant %s: approval receipt %s could not be stored: %s", name, receipt.envelopeDigest(),
                    e.getClass().getSimpleName());
            throw new AdminRefusal(500, "approvals_unavailable", "the receipt could not be written to the approvals"
                    + " directory; the gateway log says why");
        }
        gateway.evidence().record(new Event.ApprovalReceived(name, caller.name(), receipt.tool(), receipt.release(),
                receipt.envelopeDigest()));
        LOG.infof("tenant %s: approver %s handed in receipt %s (operation %s)", name, caller.name(),
                receipt.envelopeDigest(), receipt.operationId());
        return Response.status(201).type(MediaType.APPLICATION_JSON).entity(new Stored(receipt.fingerprint(),
                receipt.operationId(), receipt.tool(), receipt.release(), receipt.taskId(), receipt.notAfter(),
                receipt.envelopeDigest())).build();
    }
}
