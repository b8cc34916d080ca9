package dev.cloakgate.server.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
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
import dev.cloakgate.server.Gateway;
import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.upstream.oauth.OAuthFailure;
import dev.cloakgate.upstream.oauth.UpstreamAuthorizer;
import io.smallrye.common.annotation.Blocking;

/**
 * Issue 16, upstream OAuth: an operator connects a tenant's OAuth upstream (authorization code with PKCE), sees
 * where the connection stands, and disconnects it. Credential first, like every admin route: the caller's
 * operator token is checked before anything about the tenant or upstream is said. No token is ever shown.
 */
@Path("/admin/t/{tenant}/upstreams/{upstream}/oauth")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "upstream oauth")
@SecurityRequirement(name = AdminApi.BEARER)
public class UpstreamOAuthResource {

    public record Connect(@JsonProperty("authorization_url") String authorizationUrl,
            @JsonProperty("redirect_uri_path") String redirectUriPath, String scope,
            @JsonProperty("expires_at") java.time.Instant expiresAt) {
    }

    @Inject
    Gateway gateway;

    @Inject
    AdminAccess access;

    @GET
    @Operation(summary = "Where the upstream's OAuth connection stands (operator); never a token")
    @APIResponse(responseCode = "200", description = "the status")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "404", description = "unknown_upstream, not_oauth_upstream")
    public UpstreamAuthorizer.Status status(@PathParam("tenant") String tenant, @PathParam("upstream") String upstream,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization) {
        return authorizer(tenant, upstream, authorization).status();
    }

    @POST
    @Path("/connect")
    @Blocking
    @Operation(summary = "Start connecting the upstream: the authorization URL to open (PKCE S256, single-use state"
            + " valid 10 minutes); the authorization server redirects to <public-url>/oauth/callback")
    @APIResponse(responseCode = "200", description = "the authorization URL")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "404", description = "unknown_upstream, not_oauth_upstream")
    @APIResponse(responseCode = "409", description = "public_url_required, upstream_auth_failed, ... (the code says)")
    public Connect connect(@PathParam("tenant") String tenant, @PathParam("upstream") String upstream,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization) {
        UpstreamAuthorizer a = authorizer(tenant, upstream, authorization);
        try {
            UpstreamAuthorizer.ConnectStart s = a.connect();
            return new Connect(s.authorizationUrl().toString(), dev.cloakgate.upstream.oauth.ClientRegistration.CALLBACK_PATH,
                    s.scope(), s.expires());
        } catch (OAuthFailure f) {
            throw new AdminRefusal(409, f.code().code(), f.getMessage());
        }
    }

    @DELETE
    @Operation(summary = "Disconnect: forget the upstream's tokens and registered client")
    @APIResponse(responseCode = "200", description = "the status after")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the operator role)")
    @APIResponse(responseCode = "404", description = "unknown_upstream, not_oauth_upstream")
    public UpstreamAuthorizer.Status disconnect(@PathParam("tenant") String tenant,
            @PathParam("upstream") String upstream,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization) {
        UpstreamAuthorizer a = authorizer(tenant, upstream, authorization);
        a.disconnect();
        return a.status();
    }

    private UpstreamAuthorizer authorizer(String tenant, String upstream, String authorization) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.OPERATOR);
        UpstreamConfig u = caller.tenant().upstreams().get(upstream);
        if (u == null) {
            throw new AdminRefusal(404, "unknown_upstream", "the tenant has no upstream of that name");
        }
        if (!(u instanceof UpstreamConfig.Http h) || h.oauth() == null) {
            throw new AdminRefusal(404, "not_oauth_upstream", "the upstream has no oauth block in the tenant file");
        }
        return gateway.authorizers().of(h.oauth(), h.url());
    }
}
