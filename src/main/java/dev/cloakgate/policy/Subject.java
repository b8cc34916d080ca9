package dev.cloakgate.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a control looks at.
 *
 * @param stage the moment
 * @param session the gateway session id (budgets count per session)
 * @param upstream the upstream's configured name
 * @param tool the name the agent sees (with its namespace prefix)
 * @param upstreamTool the name the upstream declared
 * @param declaration the tool's declaration as the upstream published it (name, description, inputSchema,
 *        annotations), or null when unknown
 * @param payload discovery: a copy of the declaration; request: the arguments object; response: the result, or
 *        the error object when {@code error} is true. Always a copy the control may edit when it redacts.
 * @param error whether the payload is a JSON-RPC error object
 */
public record Subject(Stage stage, String session, String upstream, String tool, String upstreamTool,
        ObjectNode declaration, JsonNode payload, boolean error) {
}
