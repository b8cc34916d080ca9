package dev.cloakgate.server.admin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.auth.Role;
import dev.cloakgate.gate.GateStores;
import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.store.Operation;
import dev.cloakgate.store.OperationRefusedException;
import dev.cloakgate.store.OperationState;
import dev.cloakgate.store.OperationStore;
import dev.cloakgate.store.StoreException;

/**
 * Issue 11: the operator's side of the gate's operations store over HTTP, as {@code operations list|reconcile} on
 * the command line. A listing shows what identifies each call and where it stands, never its arguments or result.
 * MCP cannot ask a server whether a call took effect, so an operation whose outcome is unknown is settled here by an
 * operator who checked the real system; each reconciliation is one {@code operation_reconciled} ledger entry naming
 * the operator, put there through the store's outbox as the command's are.
 */
@jakarta.ws.rs.Path("/admin/t/{tenant}/operations")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "gate")
@SecurityRequirement(name = AdminApi.BEARER)
public class OperationsResource {
    private static final Logger LOG = Logger.getLogger(OperationsResource.class);
    private static final Set<String> RECONCILE_KEYS = Set.of("outcome", "force");

    /** One operation, as {@code operations list} prints it. */
    public record OperationView(String id, String state, String tool, String upstream, int attempts,
            @JsonProperty("created_at") Instant createdAt, @JsonProperty("updated_at") Instant updatedAt,
            String approval, @JsonProperty("reconciled_by") String reconciledBy,
            @JsonProperty("reconciled_at") Instant reconciledAt) {

        static OperationView of(Operation o) {
            return new OperationView(o.id(), o.state().wire(), o.tool(), o.upstream(), o.attempts(), o.createdAt(),
                    o.updatedAt(), o.approval(), o.reconciledBy(), o.reconciledAt());
        }
    }

    public record OperationList(String tenant, List<OperationView> operations) {
    }

    @Inject
    Gateway gateway;

    @Inject
    AdminAccess access;

    @GET
    @org.eclipse.microprofile.openapi.annotations.Operation(summary = "List the tenant's operations (operator)",
            description = "Side-effecting calls the gate tracks, oldest first: id, state, tool, upstream, attempts, when"
                    + " created and last changed, the digest of the receipt that approved the last attempt, and who"
                    + " reconciled it. Never an argument or a result.")
    @APIResponse(responseCode = "200", description = "the operations")
    @APIResponse(responseCode = "400", description = "bad_request (state is not one of in_flight, done, failed,"
            + " unknown, not_applied)")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "404", description = "no_gate")
    @APIResponse(responseCode = "500", description = "operations_unavailable")
    public OperationList list(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization,
            @QueryParam("state") @Parameter(description = "only operations in this state") String state) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        OperationState only;
        try {
            only = state == null ? null : OperationState.fromWire(state);
        } catch (IllegalArgumentException e) {
            throw new AdminRefusal(400, "bad_request", "state is one of in_flight, done, failed, unknown, not_applied");
        }
        OperationStore store = GateOf.stores(gateway, caller).operations();
        List<OperationView> out = new ArrayList<>();
        for (Operation o : stored(caller, () -> store.list(only))) {
            out.add(OperationView.of(o));
        }
        return new OperationList(caller.tenant().name(), out);
    }

    @POST
    @jakarta.ws.rs.Path("{id}/reconcile")
    @Consumes(MediaType.WILDCARD)
    @org.eclipse.microprofile.openapi.annotations.Operation(summary = "Reconcile an operation (operator)",
            description = "Body `{\"outcome\": \"done\" | \"not-applied\", \"force\": false}`, after checking the real"
                    + " system: an `unknown` operation becomes `done` (a retry is answered `operation_reconciled`) or"
                    + " `not_applied` (a retry is forwarded). An `in_flight` one only with `\"force\": true` (it may"
                    + " still be running). One `operation_reconciled` ledger entry names the operator.")
    @RequestBody(description = "the outcome found, and force for an in_flight operation")
    @APIResponse(responseCode = "200", description = "the operation as reconciled")
    @APIResponse(responseCode = "400", description = "bad_request (not {outcome, force})")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "404", description = "no_gate, operation_not_found")
    @APIResponse(responseCode = "409", description = "operation_not_unknown (settled already, or in_flight without force)")
    @APIResponse(responseCode = "500", description = "operations_unavailable")
    public OperationView reconcile(@PathParam("tenant") String tenant,
            @PathParam("id") @Parameter(description = "the operation id, as listed") String id,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization, byte[] body) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        GateStores stores = GateOf.stores(gateway, caller);
        JsonNode request = request(body);
        OperationStore.Outcome outcome;
        try {
            outcome = OperationStore.Outcome.parse(request.path("outcome").textValue());
        } catch (IllegalArgumentException e) {
            throw new AdminRefusal(400, "bad_request", "outcome is \"done\" or \"not-applied\"");
        }
        JsonNode force = request.path("force");
        if (!force.isMissingNode() && !force.isBoolean()) {
            throw new AdminRefusal(400, "bad_request", "force is true or false");
        }
        if (!Operation.validId(id)) {
            throw notFound(caller, id);
        }
        Operation o;
        try {
            o = stored(caller, () -> stores.operations().reconcile(id, outcome, force.asBoolean(false), caller.name()));
        } catch (OperationRefusedException e) {
            if (OperationRefusedException.NOT_FOUND.equals(e.code())) {
                throw notFound(caller, id);
            }
            throw new AdminRefusal(409, e.code(), e.state() == OperationState.IN_FLIGHT
                    ? "operation " + id + " is in_flight: the call may still be running; check the real system, then"
                            + " reconcile with \"force\": true"
                    : "operation " + id + " is already " + e.state() + "; only an unknown operation (or an in_flight"
                            + " one, with force) is reconciled");
        }
        // the outbox row the store wrote is put on the ledger by the gate's worker, once (as a command's is)
        stores.recordReconciliationsSoon();
        LOG.infof("tenant %s: operator %s reconciled operation %s as %s", caller.tenant().name(), caller.name(), id,
                o.state());
        return OperationView.of(o);
    }

    private static JsonNode request(byte[] body) {
        JsonNode tree = null;
        if (body != null && body.length > 0) {
            try {
                tree = new JsonCodec(new JsonCodec.Limits(4, AdminBodyLimit.MAX_BYTES)).parse(body);
            } catch (JsonCodec.MalformedJson e) {
                tree = null;
            }
        }
        if (tree == null || !tree.isObject()) {
            throw new AdminRefusal(400, "bad_request", "the body is {\"outcome\": \"done\" | \"not-applied\","
                    + " \"force\": false}");
        }
        for (var names = tree.fieldNames(); names.hasNext();) {
            String k = names.next();
            if (!RECONCILE_KEYS.contains(k)) {
                throw new AdminRefusal(400, "bad_request", "unknown key " + k + "; the body is {outcome, force}");
            }
        }
        return tree;
    }

    private static AdminRefusal notFound(AdminAccess.Caller caller, String id) {
        return new AdminRefusal(404, "operation_not_found", "tenant " + caller.tenant().name() + " has no operation of"
                + " that id (GET /admin/t/" + caller.tenant().name() + "/operations lists them)");
    }

    private interface Read<T> {
        T get();
    }

    /** A store that cannot be read is a 500 naming no path; the log says why. */
    private static <T> T stored(AdminAccess.Caller caller, Read<T> read) {
        try {
            return read.get();
        } catch (StoreException e) {
            LOG.errorf("tenant %s: operations store: %s", caller.tenant().name(), e.getMessage());
            throw new AdminRefusal(500, "operations_unavailable", "the operations store could not be read or written;"
                    + " the gateway log says why");
        }
    }
}
