package dev.cloakgate.server.admin;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** Answers every {@link AdminRefusal} the same way: its status, {@code {"error", "message"}} and its challenge. */
public class AdminErrors {

    @ServerExceptionMapper
    public Response refusal(AdminRefusal r) {
        Response.ResponseBuilder b = Response.status(r.status()).type(MediaType.APPLICATION_JSON)
                .entity(JsonNodeFactory.instance.objectNode().put("error", r.code()).put("message", r.getMessage())
                        .toString());
        if (r.challenge() != null) {
            b.header("WWW-Authenticate", r.challenge());
        }
        return b.build();
    }
}
