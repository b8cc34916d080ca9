package dev.cloakgate.jsonrpc;

import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Classifies one JSON-RPC message and refuses what the gateway cannot read unambiguously. Case variants of
 * member names ({@code "Method"}, {@code "Name"}) are refused because some decoders match keys
 * case-insensitively: a message the gateway reads one way and the upstream another is a bypass.
 */
public final class Envelope {

    public enum Kind {
        REQUEST, NOTIFICATION, RESPONSE
    }

    private static final Map<String, String> MEMBERS = folded("jsonrpc", "id", "method", "params", "result", "error");
    private static final Map<String, String> PARAM_MEMBERS = folded("name", "arguments", "uri", "cursor", "_meta",
            "ref", "argument", "level", "protocolVersion", "capabilities", "clientInfo", "requestId", "progressToken",
            "progress", "total", "message", "task", "taskId", "reason", "context");

    private Envelope() {
    }

    public static Kind classify(JsonNode m) {
        if (m.isArray()) {
            throw RpcError.of(ErrorCodes.INVALID_REQUEST, "batch",
                    "JSON-RPC batches are not accepted; send one message per request").asException();
        }
        if (!m.isObject()) {
            throw RpcError.of(ErrorCodes.INVALID_REQUEST, "not_an_object", "a JSON-RPC message must be a JSON object")
                    .asException();
        }
        noncanonical(m, MEMBERS, "");
        JsonNode version = m.get("jsonrpc");
        if (version == null || !"2.0".equals(version.textValue())) {
            throw invalid("\"jsonrpc\" must be \"2.0\"");
        }
        JsonNode id = m.get("id");
        if (id != null && !(id.isTextual() || id.isIntegralNumber())) {
            throw invalid("\"id\" must be a string or an integer");
        }
        JsonNode params = m.get("params");
        if (params != null) {
            if (!params.isObject()) {
                throw invalid("\"params\" must be an object");
            }
            noncanonical(params, PARAM_MEMBERS, "params.");
        }
        JsonNode method = m.get("method");
        if (method != null) {
            if (!method.isTextual() || method.textValue().isEmpty()) {
                throw invalid("\"method\" must be a non-empty string");
            }
            if (m.has("result") || m.has("error")) {
                throw invalid("a message cannot carry both \"method\" and \"result\"/\"error\"");
            }
            return id == null ? Kind.NOTIFICATION : Kind.REQUEST;
        }
        if (id == null) {
            throw invalid("a message needs \"method\" or \"id\"");
        }
        if (m.has("result") == m.has("error")) {
            throw invalid("a response carries exactly one of \"result\" and \"error\"");
        }
        JsonNode error = m.get("error");
        if (error != null && !(error.isObject() && error.path("code").isIntegralNumber())) {
            throw invalid("\"error\" must be an object with an integer \"code\"");
        }
        return Kind.RESPONSE;
    }

    /** Refuses a member whose name folds to a known member's but is spelled differently. */
    private static void noncanonical(JsonNode object, Map<String, String> known, String prefix) {
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            String canonical = known.get(name.toLowerCase(Locale.ROOT));
            if (canonical != null && !canonical.equals(name)) {
                throw RpcError.of(ErrorCodes.INVALID_REQUEST, "noncanonical",
                        "member \"" + prefix + name + "\" is a case variant of a JSON-RPC/MCP member name").asException();
            }
        }
    }

    private static Map<String, String> folded(String... canonical) {
        Map<String, String> m = new java.util.HashMap<>();
        for (String c : canonical) {
            m.put(c.toLowerCase(Locale.ROOT), c);
        }
        return Map.copyOf(m);
    }

    private static RpcException invalid(String message) {
        return RpcError.of(ErrorCodes.INVALID_REQUEST, "invalid_request", message).asException();
    }
}
