package dev.cloakgate.server.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Bounds what an admin request may send before anything reads it. Quarkus REST reads a body whole before the
 * resource asks who is calling, and the gateway's own body limit sits high for MCP; so anyone who reaches the port
 * could make it buffer a large body here. An admin body is a few hashes: a body must say its length
 * ({@code Content-Length}; a chunked one gets 411) and stay within {@link #MAX_BYTES} (413 otherwise).
 */
@ApplicationScoped
public class AdminBodyLimit {
    static final int MAX_BYTES = 256 * 1024;

    void routes(@Observes Router router) {
        // after HttpLimits' deadlines (Integer.MIN_VALUE), before Quarkus REST reads the body
        router.route("/admin/*").order(Integer.MIN_VALUE + 1).handler(this::check);
    }

    private void check(RoutingContext rc) {
        // without Transfer-Encoding and Content-Length a request has no body (RFC 9112 6.3)
        String length = rc.request().getHeader("Content-Length");
        if (rc.request().getHeader("Transfer-Encoding") != null) {
            refuse(rc, 411, "length_required", "an admin request with a body sends Content-Length (at most "
                    + MAX_BYTES + " bytes), not a chunked body");
            return;
        }
        if (length != null) {
            long n;
            try {
                n = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 0 || n > MAX_BYTES) {
                refuse(rc, 413, "too_large", "an admin request's body is at most " + MAX_BYTES + " bytes");
                return;
            }
        }
        rc.next();
    }

    private static void refuse(RoutingContext rc, int status, String code, String message) {
        rc.response().setStatusCode(status).putHeader("Content-Type", "application/json").putHeader("Connection", "close")
                .end(JsonNodeFactory.instance.objectNode().put("error", code).put("message", message).toString());
    }
}
