package dev.cloakgate.server;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.auth.ProtectedResource;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Issue 16: each OAuth tenant's Protected Resource Metadata (RFC 9728) at the path the MCP authorization
 * specification gives for its MCP URL, {@code /.well-known/oauth-protected-resource/t/{tenant}/mcp}. A tenant that
 * is not an OAuth resource and a tenant that does not exist get the same 404, so the endpoint names no tenant beyond
 * those that publish metadata by design. The document is public (it holds no credential and no subject): any origin
 * may read it, as a browser-based MCP client must.
 */
@ApplicationScoped
public class ProtectedResourceRoutes {
    static final String PATH = ProtectedResource.WELL_KNOWN + "/t/:tenant/mcp";

    @Inject
    Gateway gateway;

    void routes(@Observes Router router) {
        router.get(PATH).handler(this::metadata);
        // a browser-based client's discovery sends MCP-Protocol-Version, which takes a preflight
        router.options(PATH).handler(rc -> rc.response().setStatusCode(204).putHeader("Access-Control-Allow-Origin", "*")
                .putHeader("Access-Control-Allow-Methods", "GET").putHeader("Access-Control-Allow-Headers", "MCP-Protocol-Version")
                .end());
    }

    private void metadata(RoutingContext rc) {
        String tenant = rc.pathParam("tenant");
        ProtectedResource resource = gateway.access() == null ? null
                : gateway.access().resource(tenant).orElse(null);
        rc.response().putHeader("Access-Control-Allow-Origin", "*").putHeader("Content-Type", "application/json");
        if (resource == null) {
            ObjectNode err = JsonNodeFactory.instance.objectNode();
            err.put("error", "no_resource_metadata");
            err.put("error_description", "no OAuth protected resource here");
            rc.response().setStatusCode(404).end(err.toString());
            return;
        }
        rc.response().putHeader("Cache-Control", "max-age=300").setStatusCode(200).end(resource.metadata().toString());
    }
}
