package dev.cloakgate.server;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.cloakgate.upstream.oauth.ClientRegistration;
import dev.cloakgate.upstream.oauth.ConnectStates;
import dev.cloakgate.upstream.oauth.OAuthFailure;
import io.smallrye.common.annotation.Blocking;

/**
 * Issue 16, upstream OAuth: the redirect receiver of an operator's connection ({@code <public-url>/oauth/callback}),
 * and the gateway's client metadata document ({@code <public-url>/oauth/client-metadata.json}) for authorization
 * servers that take a URL as client id. The callback needs no credential: the single-use, expiring {@code state}
 * the operator's connect request made is what binds it to one tenant's upstream and its PKCE verifier; an unknown,
 * used or expired state is refused and nothing is exchanged.
 */
@Path("/oauth")
public class OAuthCallbackResource {
    private static final Logger LOG = Logger.getLogger(OAuthCallbackResource.class);

    @Inject
    Gateway gateway;

    @GET
    @Path("/callback")
    @Operation(hidden = true) // not the admin API: what the authorization server redirects a browser to
    @Blocking
    public Response callback(@QueryParam("state") String state, @QueryParam("code") String code,
            @QueryParam("error") String error, @QueryParam("iss") String iss,
            @jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri,
            @jakarta.ws.rs.core.Context jakarta.ws.rs.core.HttpHeaders headers) {
        // issue 17: in a cluster, the redirect is handled by the replica that started the connection
        java.net.URI requested = uri.getRequestUri();
        OAuthCallbackRelay.Route route = relay().route(state, requested.getRawPath()
                + (requested.getRawQuery() == null ? "" : "?" + requested.getRawQuery()),
                headers.getHeaderString(dev.cloakgate.cluster.PeerSignature.HEADER));
        if (route instanceof OAuthCallbackRelay.Route.Refused r) {
            LOG.warnf("an OAuth redirect was refused before its state was looked up (%s)", r.code());
            return refuse(r.status(), r.code(), r.message());
        }
        if (route instanceof OAuthCallbackRelay.Route.Answered a) {
            return Response.status(a.status()).type(a.contentType()).entity(a.body()).build();
        }
        ConnectStates.Pending p = gateway.authorizers().take(state);
        if (p == null) {
            return refuse(400, "oauth_state_invalid",
                    "unknown, used or expired state: start the connection again through the admin API");
        }
        if (error != null || code == null || code.isEmpty()) {
            String e = error != null && error.matches("[a-z_]{1,64}") ? error : "no_code";
            LOG.warnf("upstream %s/%s: the authorization server sent no code (%s)", p.tenant(), p.upstream(), e);
            return refuse(400, "upstream_auth_failed", "the authorization server sent no code (" + e + ")");
        }
        try {
            p.authorizer().complete(p, code, iss);
        } catch (OAuthFailure f) {
            LOG.warnf("upstream %s/%s: finishing the connection failed (%s): %s", p.tenant(), p.upstream(),
                    f.code().code(), f.getMessage());
            return refuse(502, f.code().code(), f.getMessage());
        }
        LOG.infof("upstream %s/%s: connected (authorization code)", p.tenant(), p.upstream());
        return Response.ok(JsonNodeFactory.instance.objectNode().put("connected", true).put("tenant", p.tenant())
                .put("upstream", p.upstream()).toString(), MediaType.APPLICATION_JSON).build();
    }

    private OAuthCallbackRelay relay;

    private synchronized OAuthCallbackRelay relay() {
        if (relay == null) {
            relay = new OAuthCallbackRelay(gateway.cluster(), gateway.config().cluster());
        }
        return relay;
    }

    @GET
    @Path(ClientRegistration.METADATA_PATH_TAIL)
    @Operation(hidden = true)
    public Response metadata() {
        try {
            return Response.ok(gateway.authorizers().registration().metadataDocument().toString(),
                    MediaType.APPLICATION_JSON).build();
        } catch (OAuthFailure f) {
            return refuse(404, f.code().code(), f.getMessage());
        }
    }

    private static Response refuse(int status, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(JsonNodeFactory.instance.objectNode().put("error", code).put("message", message).toString())
                .build();
    }
}
