package dev.cloakgate.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A JSON-RPC error the gateway answers with. {@code reason} is the stable snake_case code carried in
 * {@code data.reason}; {@code data} holds any further fields (never a payload or a detected value).
 */
public record RpcError(int code, String message, String reason, ObjectNode data) {

    public static RpcError of(int code, String message) {
        return new RpcError(code, message, null, null);
    }

    public static RpcError of(int code, String reason, String message) {
        return new RpcError(code, message, reason, null);
    }

    public RpcError with(String key, String value) {
        ObjectNode d = data == null ? JsonNodeFactory.instance.objectNode() : data.deepCopy();
        d.put(key, value);
        return new RpcError(code, message, reason, d);
    }

    public RpcError with(String key, JsonNode value) {
        ObjectNode d = data == null ? JsonNodeFactory.instance.objectNode() : data.deepCopy();
        d.set(key, value);
        return new RpcError(code, message, reason, d);
    }

    /** The {@code error} member of a JSON-RPC response. */
    public ObjectNode toJson() {
        ObjectNode e = JsonNodeFactory.instance.objectNode();
        e.put("code", code);
        e.put("message", message);
        if (reason != null || data != null) {
            ObjectNode d = JsonNodeFactory.instance.objectNode();
            if (reason != null) {
                d.put("reason", reason);
            }
            if (data != null) {
                d.setAll(data);
            }
            e.set("data", d);
        }
        return e;
    }

    /** A full response carrying this error for the given request id ({@code null} id when unknown). */
    public ObjectNode toResponse(JsonNode id) {
        return Messages.errorResponse(id, this);
    }

    public RpcException asException() {
        return new RpcException(this);
    }
}
