package dev.cloakgate.server.admin;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.cloakgate.auth.Role;
import dev.cloakgate.gate.GateStores;
import dev.cloakgate.gate.ReleaseManifest;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.server.Gateway;
import dev.cloakgate.store.StoreException;
import dev.cloakgate.tenant.TenantStatus;
import dev.cloakgate.upstream.UpstreamHealth;

/**
 * Where a tenant stands, for its operators: the configuration serving new sessions (file digest, when it was
 * loaded), the last refused version of its file and what was wrong with it (JSON path and message, never a value),
 * whether it takes new sessions, its open sessions and each upstream's health.
 */
@Path("/admin/t/{tenant}/status")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "status")
@SecurityRequirement(name = AdminApi.BEARER)
public class TenantStatusResource {

    public record Rejection(String file, String path, String message, String sha256, Instant at) {
    }

    /** An upstream's last failure: its stable code, what failed, and the head of a child's stderr (scrubbed). */
    public record Failure(String reason, String cause, String diagnostic, Instant at) {
    }

    public record UpstreamView(String state, Instant since, @JsonProperty("last_failure") Failure lastFailure,
            long restarts, Map<String, Long> failures) {
    }

    public record Status(String tenant, String file, @JsonProperty("config_sha256") String configSha256,
            @JsonProperty("loaded_at") Instant loadedAt, @JsonProperty("accepting_sessions") boolean acceptingSessions,
            @JsonProperty("removed_at") Instant removedAt, @JsonProperty("file_rejected") boolean fileRejected,
            @JsonProperty("last_rejected") Rejection lastRejected, @JsonProperty("sessions_open") int sessionsOpen,
            @JsonProperty("stdio_children") int stdioChildren, Map<String, UpstreamView> upstreams, GateView gate) {
    }

    /**
     * Issue 11: the action gate of the version serving new sessions: its release, mode and environment, the
     * certification's state now ({@code valid until T} or the refusal reason every call gets), the contracts the
     * release binds, the tenant's operations counted by state (every state, 0 when none) and where receipts are read.
     */
    public record GateView(String release, String mode, String environment, String certification,
            List<String> contracts, Map<String, Long> operations, @JsonProperty("approvals_dir") String approvalsDir) {
    }

    @Inject
    Gateway gateway;

    @Inject
    AdminAccess access;

    @GET
    @Operation(summary = "The tenant's configuration, sessions and upstream health (operator)")
    @APIResponse(responseCode = "200", description = "the status")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    public Status status(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        String name = caller.tenant().name();
        TenantStatus s = gateway.tenants().status(name).orElseThrow(
                () -> new AdminRefusal(404, "unknown_tenant", "no tenant of that name"));
        TenantStatus.Rejection r = s.lastRejected();
        Map<String, UpstreamView> upstreams = new TreeMap<>();
        gateway.sessions().health().tenant(name).forEach((u, h) -> {
            UpstreamHealth.Failure f = h.lastFailure();
            upstreams.put(u, new UpstreamView(h.state().name().toLowerCase(Locale.ROOT), h.since(),
                    f == null ? null : new Failure(f.reason(), f.cause(), f.diagnostic(), f.at()), h.restarts(),
                    h.failures()));
        });
        return new Status(name, s.file(), s.digest(), s.loadedAt(), s.acceptingSessions(), s.removedAt(),
                s.fileRejected(), r == null ? null : new Rejection(r.file(), r.path(), r.message(), r.digest(), r.at()),
                (int) gateway.sessions().open(name),
                gateway.sessions().held(name).stdioChildren(), upstreams, gate(name));
    }

    private GateView gate(String name) {
        TenantGate g = gateway.gate(name);
        GateStores stores = gateway.gateStores(name);
        if (g == null || stores == null) {
            return null;
        }
        Map<String, Long> operations = new LinkedHashMap<>();
        try {
            stores.operations().counts().forEach((state, n) -> operations.put(state.wire(), n));
        } catch (StoreException e) {
            // the status still answers; the operations' own endpoint says operations_unavailable
            operations.clear();
        }
        return new GateView(g.releaseHash(), g.settings().mode().name().toLowerCase(Locale.ROOT),
                g.settings().environment(), g.certificationState(),
                g.manifest().policies().stream().map(ReleaseManifest.PolicyRef::ref).toList(), operations,
                stores.approvalsDir(g.settings()).toString());
    }
}
