package dev.cloakgate.server.admin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.cloakgate.auth.Role;
import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.LogTag;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.session.GatewaySession;
import dev.cloakgate.upstream.Upstream;

/**
 * The operator's view of a tenant's live sessions, and ending one. A session is named by its tag (the first 8 bytes
 * of its id's SHA-256, as in the log), never by its id: the id is a bearer handle, and an operator needs none.
 */
@Path("/admin/t/{tenant}/sessions")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "sessions")
@SecurityRequirement(name = AdminApi.BEARER)
public class SessionsResource {

    /** One live session: who opened it and where it stands; names and numbers only. */
    public record SessionView(String session, String principal,
            @JsonProperty("protocol_version") String protocolVersion,
            @JsonProperty("idle_seconds") long idleSeconds, boolean busy,
            @JsonProperty("open_streams") int openStreams, Map<String, String> upstreams) {
    }

    public record SessionList(String tenant, List<SessionView> sessions) {
    }

    @Inject
    Gateway gateway;

    @Inject
    AdminAccess access;

    @GET
    @Operation(summary = "List the tenant's live sessions (operator)")
    @APIResponse(responseCode = "200", description = "the sessions, longest idle first")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "404", description = "unknown_tenant")
    public SessionList list(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        List<SessionView> out = new ArrayList<>();
        for (GatewaySession s : gateway.sessions().of(caller.tenant().name())) {
            if (s.closed()) {
                continue;
            }
            Map<String, String> upstreams = new LinkedHashMap<>();
            for (Map.Entry<String, Upstream> u : s.upstreams().entrySet()) {
                upstreams.put(u.getKey(), u.getValue().connected() ? "connected" : "idle");
            }
            out.add(new SessionView(LogTag.of(s.id()), s.principal().name(), s.protocolVersion(),
                    TimeUnit.NANOSECONDS.toSeconds(s.idleNanos()), s.busy(), s.streams().liveConnections(), upstreams));
        }
        out.sort(Comparator.comparingLong(SessionView::idleSeconds).reversed());
        return new SessionList(caller.tenant().name(), out);
    }

    @DELETE
    @Path("{tag}")
    @Operation(summary = "End a session (operator)", description = "Ends the session and its upstream sessions, as"
            + " the client's own DELETE would; the client's next request with its id gets 404 and it starts a new"
            + " session. Recorded in the tenant's ledger as session_ended with the operator's name.")
    @APIResponse(responseCode = "204", description = "ended")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "404", description = "unknown_tenant, unknown_session")
    public Response end(@PathParam("tenant") String tenant,
            @PathParam("tag") @Parameter(description = "the session's tag, as listed") String tag,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        for (GatewaySession s : gateway.sessions().of(caller.tenant().name())) {
            if (LogTag.of(s.id()).equals(tag) && gateway.sessions().remove(s.id())) {
                gateway.evidence().record(new Event.SessionEnded(caller.tenant().name(), caller.name(), s.id()));
                return Response.noContent().build();
            }
        }
        throw new AdminRefusal(404, "unknown_session", "no live session of tenant " + caller.tenant().name()
                + " has that tag (GET /admin/t/" + caller.tenant().name() + "/sessions lists them)");
    }
}
