package dev.cloakgate.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A scripted MCP session and what came back, with ids removed (ids are remapped by design), so a direct run
 * and a gateway run can be compared entry by entry.
 */
public final class Transcript {

    /** One step: the method, its params as sent, and the response without its id. */
    public record Entry(String method, JsonNode params, JsonNode response) {
    }

    private final List<Entry> entries = new ArrayList<>();

    public List<Entry> entries() {
        return entries;
    }

    public JsonNode record(McpTestClient client, String method, JsonNode params) {
        ObjectNode response = client.request(method, params);
        ObjectNode copy = response.deepCopy();
        copy.remove("id");
        entries.add(new Entry(method, params, copy));
        return response;
    }

    public void recordInitialize(McpTestClient client, String version) {
        ObjectNode response = client.initialize(version, Json.object());
        ObjectNode copy = response.deepCopy();
        copy.remove("id");
        entries.add(new Entry("initialize", null, copy));
    }

    /** A copy with every response transformed (the intended differences undone). */
    public Transcript map(UnaryOperator<Entry> f) {
        Transcript t = new Transcript();
        for (Entry e : entries) {
            t.entries.add(f.apply(e));
        }
        return t;
    }
}
