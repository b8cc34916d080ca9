package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Issue 10's upstream keys: the HTTP transport. */
class UpstreamKeysTest {
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of()), Path.of("/work"));

    @Test
    void anHttpUpstreamSpeaksStreamableHttpUnlessItSaysSse() throws Exception {
        assertEquals(UpstreamConfig.HttpTransport.STREAMABLE_HTTP, http("{\"url\":\"http://h/mcp\"}").transport());
        assertEquals(UpstreamConfig.HttpTransport.STREAMABLE_HTTP,
                http("{\"url\":\"http://h/mcp\",\"transport\":\"streamable-http\"}").transport());
        assertEquals(UpstreamConfig.HttpTransport.SSE, http("{\"url\":\"http://h/sse\",\"transport\":\"sse\"}").transport());
        TenantConfigException e = failure("{\"upstreams\":{\"a\":{\"url\":\"http://h/sse\",\"transport\":\"SSE\"}}}");
        assertEquals("$.upstreams.a.transport", e.path());
        e = failure("{\"upstreams\":{\"a\":{\"command\":\"x\",\"transport\":\"sse\"}}}");
        assertEquals("$.upstreams.a.transport", e.path(), "a stdio server has no HTTP transport");
        assertTrue(e.getMessage().contains("unknown key"), e.getMessage());
    }

    private UpstreamConfig.Http http(String upstream) throws TenantConfigException {
        return (UpstreamConfig.Http) parse("{\"upstreams\":{\"a\":" + upstream + "}}").upstreams().get("a");
    }

    TenantConfig parse(String json) throws TenantConfigException {
        return parser.parse("t", "t.json", json.getBytes(StandardCharsets.UTF_8));
    }

    TenantConfigException failure(String json) {
        return assertThrows(TenantConfigException.class, () -> parse(json));
    }
}
