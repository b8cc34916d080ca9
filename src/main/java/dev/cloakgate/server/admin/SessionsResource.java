package dev.cloakgate.server.admin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
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

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.cloakgate.auth.Role;
import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.LogTag;
import dev.cloakgate.gate.TaskContexts;
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
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SessionsResource.class);

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
    @APIResponse(responseCode = "404", description = "unknown_session")
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
        throw unknownSession(caller);
    }

    // ---- issue 11: the session's trusted task context, set by an operator ----

    @PUT
    @Path("{tag}/task-context")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Set a session's task context (operator)", description = "The body is a task context"
            + " envelope as `task sign` writes it (the JSON, not the header's base64), verified now under the"
            + " orchestrator keys of the gate the session runs with, as the `Cloakgate-Task-Context` header at"
            + " initialize would be. It replaces the session's task context for its next calls.")
    @RequestBody(description = "the task context envelope (JSON)")
    @APIResponse(responseCode = "204", description = "set")
    @APIResponse(responseCode = "400", description = "task_context_unreadable")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role); task_context_untrusted,"
            + " task_context_expired")
    @APIResponse(responseCode = "404", description = "unknown_session, no_gate (the session runs"
            + " without a gate)")
    public Response setTaskContext(@PathParam("tenant") String tenant,
            @PathParam("tag") @Parameter(description = "the session's tag, as listed") String tag,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization, byte[] body) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        GatewaySession session = live(caller, tag);
        if (session.gate() == null) {
            throw new AdminRefusal(404, "no_gate", "that session runs with a configuration of tenant "
                    + caller.tenant().name() + " that has no action gate");
        }
        if (body == null || body.length == 0 || body.length > TaskContexts.MAX_HEADER_CHARS) {
            throw new AdminRefusal(400, "task_context_unreadable", "the body is the task context envelope as `task sign`"
                    + " writes it, at most " + TaskContexts.MAX_HEADER_CHARS + " bytes");
        }
        // the session's own gate, as for the header at initialize: its release and contracts judge the calls
        TaskContexts.Outcome o = session.gate().taskContext(body);
        if (o instanceof TaskContexts.Refused r) {
            throw new AdminRefusal("task_context_unreadable".equals(r.reason()) ? 400 : 403, r.reason(), r.detail());
        }
        dev.cloakgate.gate.TaskContext context = ((TaskContexts.Verified) o).context();
        session.task().set(context);
        LOG.infof("tenant %s: operator %s set the task context of session %s (envelope %s)", caller.tenant().name(),
                caller.name(), tag, context.envelopeDigest());
        return Response.noContent().build();
    }

    private GatewaySession live(AdminAccess.Caller caller, String tag) {
        for (GatewaySession s : gateway.sessions().of(caller.tenant().name())) {
            if (!s.closed() && LogTag.of(s.id()).equals(tag)) {
                return s;
            }
        }
        throw unknownSession(caller);
    }

    private static AdminRefusal unknownSession(AdminAccess.Caller caller) {
        return new AdminRefusal(404, "unknown_session", "no live session of tenant " + caller.tenant().name()
                + " has that tag (GET /admin/t/" + caller.tenant().name() + "/sessions lists them)");
    }
}
