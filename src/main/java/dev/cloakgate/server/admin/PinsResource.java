package dev.cloakgate.server.admin;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.auth.Role;
import dev.cloakgate.evidence.Event;
import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.policy.DefinitionDiff;
import dev.cloakgate.policy.PinReview;
import dev.cloakgate.policy.PinStore;
import dev.cloakgate.server.Gateway;

/**
 * The operator's side of pinned tool definitions over HTTP, as {@code pins list|diff|accept} on the command line:
 * what is pinned, what is quarantined and what changed in it, and accepting a change or every pending change of one
 * upstream. Accepting names the pending hashes the operator was shown, so a definition that changed again since
 * stays quarantined. Each acceptance is a {@code pin_accepted} ledger entry with the operator's name.
 */
@jakarta.ws.rs.Path("/admin/t/{tenant}/pins")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "pins")
@SecurityRequirement(name = AdminApi.BEARER)
public class PinsResource {
    private static final Logger LOG = Logger.getLogger(PinsResource.class);
    /** An accept request is a few hashes; anything larger is not one (and never reaches here: AdminBodyLimit). */
    private static final int MAX_BODY = AdminBodyLimit.MAX_BYTES;

    public record PinView(String tool, String sha256, @JsonProperty("pinned_at") String pinnedAt,
            @JsonProperty("pending_sha256") String pendingSha256, boolean quarantined) {
    }

    public record PinList(String tenant, List<PinView> pins) {
    }

    public record ChangeView(String kind, String pointer) {
    }

    /** A quarantined tool: both definitions as the upstream wrote them (for review), and what changed. */
    public record PendingView(String tool, String upstream, @JsonProperty("pinned_sha256") String pinnedSha256,
            @JsonProperty("pending_sha256") String pendingSha256, JsonNode pinned, JsonNode proposed,
            List<ChangeView> changes) {
    }

    /** {@code accept} is the body that accepts exactly these changes: POST it back to {@code pins/accept}. */
    public record PendingList(String tenant, List<PendingView> pending, Map<String, String> accept) {
    }

    public record Accepted(String tenant, List<String> accepted, @JsonProperty("not_accepted") List<String> notAccepted) {
    }

    @Inject
    Gateway gateway;

    @Inject
    AdminAccess access;

    @GET
    @Operation(summary = "List the tenant's pinned tools (operator)")
    @APIResponse(responseCode = "200", description = "every pin, quarantined ones with their pending hash")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    public PinList list(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        List<PinView> out = new ArrayList<>();
        for (PinStore.Pin p : read(() -> review(caller).all()).values()) {
            out.add(new PinView(p.tool(), p.sha256(), p.pinnedAt(), p.pending(), p.pending() != null));
        }
        return new PinList(caller.tenant().name(), out);
    }

    @GET
    @jakarta.ws.rs.Path("pending")
    @Operation(summary = "Show quarantined tools and what changed in each (operator)", description = "The pinned and"
            + " the proposed definition side by side, the changed parts as JSON pointers, and under `accept` the body"
            + " that accepts exactly what was shown.")
    @APIResponse(responseCode = "200", description = "the quarantined tools")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    public PendingList pending(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization,
            @QueryParam("upstream") @Parameter(description = "only this upstream's tools") String upstream,
            @QueryParam("tool") @Parameter(description = "only this tool (UPSTREAM/NAME)") String tool) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        if (upstream != null && tool != null) {
            throw new AdminRefusal(400, "bad_request", "give upstream or tool, not both");
        }
        PinReview review = review(caller);
        List<PinReview.Pending> shown = read(() -> upstream != null ? review.pendingOf(upstream) : review.pending());
        List<PendingView> out = new ArrayList<>();
        Map<String, String> accept = new LinkedHashMap<>();
        for (PinReview.Pending p : shown) {
            if (tool != null && !p.tool().equals(tool)) {
                continue;
            }
            List<ChangeView> changes = new ArrayList<>();
            for (DefinitionDiff.Change c : p.changes()) {
                changes.add(new ChangeView(c.kind().code(), c.pointer()));
            }
            out.add(new PendingView(p.tool(), p.upstream(), p.pinnedSha256(), p.pendingSha256(), p.pinned(),
                    p.proposed(), changes));
            accept.put(p.tool(), p.pendingSha256());
        }
        return new PendingList(caller.tenant().name(), out, accept);
    }

    @POST
    @jakarta.ws.rs.Path("accept")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Accept pending definitions (operator)", description = "The body maps each tool"
            + " (UPSTREAM/NAME) to the pending sha256 the operator reviewed, as `pins/pending` gives it under"
            + " `accept`: `{\"fs/read_text_file\": \"<sha256>\", ...}`. A tool whose pending definition is no"
            + " longer that hash stays quarantined and is listed under `not_accepted`.")
    @RequestBody(description = "tool -> reviewed pending sha256")
    @APIResponse(responseCode = "200", description = "what was accepted, and what was not")
    @APIResponse(responseCode = "400", description = "bad_request (not a JSON object of tool -> 64 hex digits)")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "409", description = "pin_not_pending: none of the given changes is pending as given")
    public Accepted accept(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization, byte[] body) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        Map<String, String> reviewed = reviewed(body);
        PinStore store = review(caller).store();
        java.util.Set<String> done = read(() -> store.acceptAll(reviewed));
        List<String> not = new ArrayList<>();
        for (Map.Entry<String, String> r : reviewed.entrySet()) {
            if (done.contains(r.getKey())) {
                gateway.evidence().record(new Event.PinAccepted(caller.tenant().name(), caller.name(), r.getKey(),
                        r.getValue()));
            } else {
                not.add(r.getKey());
            }
        }
        LOG.infof("pins of tenant %s: operator %s accepted %d definition(s), %d not pending as reviewed",
                caller.tenant().name(), caller.name(), done.size(), not.size());
        if (done.isEmpty()) {
            throw new AdminRefusal(409, "pin_not_pending", "none of the " + reviewed.size() + " tool(s) has that"
                    + " pending definition (it was accepted already, or changed again: GET pins/pending shows what is"
                    + " pending now)");
        }
        return new Accepted(caller.tenant().name(), List.copyOf(done), not);
    }

    private static Map<String, String> reviewed(byte[] body) {
        if (body == null || body.length == 0 || body.length > MAX_BODY) {
            throw new AdminRefusal(400, "bad_request", "the body is a JSON object of UPSTREAM/NAME -> pending sha256,"
                    + " at most " + MAX_BODY + " bytes");
        }
        JsonNode tree;
        try {
            tree = new JsonCodec(new JsonCodec.Limits(8, MAX_BODY)).parse(body);
        } catch (JsonCodec.MalformedJson e) {
            throw new AdminRefusal(400, "bad_request", "the body is a JSON object of UPSTREAM/NAME -> pending sha256"
                    + " (as GET pins/pending gives it under accept): " + e.getMessage());
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (tree != null && tree.isObject() && !tree.isEmpty()) {
            tree.fields().forEachRemaining(f -> {
                if (f.getValue().isTextual() && f.getValue().asText().matches("[0-9a-f]{64}")) {
                    out.put(f.getKey(), f.getValue().asText());
                }
            });
            if (out.size() == tree.size()) {
                return out;
            }
        }
        throw new AdminRefusal(400, "bad_request", "the body is a non-empty JSON object of UPSTREAM/NAME -> pending"
                + " sha256 (64 lower-case hex digits), as GET pins/pending gives it under accept");
    }

    private PinReview review(AdminAccess.Caller caller) {
        return new PinReview(gateway.stateStores().pins(caller.tenant().name())); // issue 17: the shared pins too
    }

    private interface Io<T> {
        T get() throws IOException;
    }

    private static <T> T read(Io<T> io) {
        try {
            return io.get();
        } catch (IOException e) {
            LOG.errorf("pins: %s", e.getClass().getSimpleName());
            throw new AdminRefusal(500, "pins_unavailable", "the pin file could not be read or written; the gateway"
                    + " log says why");
        }
    }
}
