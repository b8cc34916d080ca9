package dev.cloakgate.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Helpers over JSON-RPC messages kept as plain Jackson trees. A proxy that parsed into typed models would drop
 * every field the model does not know, and MCP grows new fields constantly; these helpers touch only the
 * envelope.
 */
public final class Messages {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Messages() {
    }

    public static boolean isRequest(JsonNode m) {
        return m.has("method") && m.has("id");
    }

    public static boolean isNotification(JsonNode m) {
        return m.has("method") && !m.has("id");
    }

    public static boolean isResponse(JsonNode m) {
        return !m.has("method") && m.has("id") && (m.has("result") || m.has("error"));
    }

    public static String method(JsonNode m) {
        JsonNode n = m.get("method");
        return n == null ? null : n.asText();
    }

    /** The params object, or an empty object when absent (never null). */
    public static ObjectNode params(JsonNode m) {
        JsonNode p = m.get("params");
        return p instanceof ObjectNode o ? o : F.objectNode();
    }

    public static ObjectNode request(JsonNode id, String method, JsonNode params) {
        ObjectNode m = F.objectNode();
        m.put("jsonrpc", "2.0");
        m.set("id", id);
        m.put("method", method);
        if (params != null) {
            m.set("params", params);
        }
        return m;
    }

    public static ObjectNode notification(String method, JsonNode params) {
        ObjectNode m = F.objectNode();
        m.put("jsonrpc", "2.0");
        m.put("method", method);
        if (params != null) {
            m.set("params", params);
        }
        return m;
    }

    public static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode m = F.objectNode();
        m.put("jsonrpc", "2.0");
        m.set("id", id);
        m.set("result", result);
        return m;
    }

    public static ObjectNode errorResponse(JsonNode id, RpcError error) {
        ObjectNode m = F.objectNode();
        m.put("jsonrpc", "2.0");
        m.set("id", id == null ? NullNode.instance : id);
        m.set("error", error.toJson());
        return m;
    }

    /** The same message with another id; the original is not modified. */
    public static ObjectNode withId(JsonNode message, JsonNode id) {
        ObjectNode copy = ((ObjectNode) message).deepCopy();
        copy.set("id", id);
        return copy;
    }

    /** {@code params._meta.progressToken}, or null. */
    public static JsonNode progressToken(JsonNode message) {
        JsonNode meta = message.path("params").path("_meta");
        JsonNode t = meta.get("progressToken");
        return t == null || t.isNull() ? null : t;
    }
}
