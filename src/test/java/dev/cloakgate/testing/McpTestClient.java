package dev.cloakgate.testing;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The client side of an MCP session, over whichever transport: what scripted tests drive. */
public interface McpTestClient extends AutoCloseable {

    ObjectNode initialize(String version, ObjectNode capabilities);

    /** Sends a request and returns the whole response message (result or error). */
    ObjectNode request(String method, JsonNode params);

    void notify(String method, JsonNode params);

    List<ObjectNode> notifications();

    @Override
    void close();

    /** The params of an initialize request from this test client. */
    static ObjectNode initializeParams(String version, ObjectNode capabilities) {
        ObjectNode params = Json.object();
        params.put("protocolVersion", version);
        params.set("capabilities", capabilities);
        ObjectNode info = params.putObject("clientInfo");
        info.put("name", "cloakgate-test");
        info.put("version", "1.0.0");
        return params;
    }
}
