package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Issue 10's upstream keys: the HTTP transport, shared stdio servers, the tenant's limits. */
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

    @Test
    void aStdioServerIsSharedOnlyWhenTheOperatorSaysSo() throws Exception {
        assertEquals(false, stdio("{\"command\":\"x\"}").shared());
        assertEquals(true, stdio("{\"command\":\"x\",\"shared\":true}").shared());
        assertEquals("$.upstreams.a.shared", failure("{\"upstreams\":{\"a\":{\"command\":\"x\",\"shared\":\"yes\"}}}").path());
        TenantConfigException e = failure("{\"upstreams\":{\"a\":{\"url\":\"http://h/mcp\",\"shared\":true}}}");
        assertEquals("$.upstreams.a.shared", e.path(), "an HTTP server is never a child of the gateway");
    }

    @Test
    void theLimitsBlockCapsSessionsAndChildrenOrTakesTheGatewayDefaults() throws Exception {
        TenantLimits none = parse("{\"upstreams\":{\"a\":{\"command\":\"x\"}}}").limits();
        assertTrue(none.maxSessions().isEmpty() && none.maxStdioChildren().isEmpty());
        TenantLimits l = parse("{\"upstreams\":{\"a\":{\"command\":\"x\"}},\"limits\":{\"max_sessions\":5,"
                + "\"max_stdio_children\":3}}").limits();
        assertEquals(5, l.maxSessions().getAsInt());
        assertEquals(3, l.maxStdioChildren().getAsInt());
        assertEquals("$.limits.max_sessions", failure("{\"upstreams\":{\"a\":{\"command\":\"x\"}},"
                + "\"limits\":{\"max_sessions\":0}}").path());
        assertEquals("$.limits.max_children", failure("{\"upstreams\":{\"a\":{\"command\":\"x\"}},"
                + "\"limits\":{\"max_children\":2}}").path());
        assertEquals("$.limits", failure("{\"upstreams\":{\"a\":{\"command\":\"x\"}},\"limits\":7}").path());
    }

    private UpstreamConfig.Stdio stdio(String upstream) throws TenantConfigException {
        return (UpstreamConfig.Stdio) parse("{\"upstreams\":{\"a\":" + upstream + "}}").upstreams().get("a");
    }

    private UpstreamConfig.Http http(String upstream) throws TenantConfigException {
        return (UpstreamConfig.Http) parse("{\"upstreams\":{\"a\":" + upstream + "}}").upstreams().get("a");
    }

    /** The tenant file {@code json} with an open auth block (every tenant file must have one). */
    TenantConfig parse(String json) throws TenantConfigException {
        String withAuth = "{\"auth\":{\"mode\":\"none\"}," + json.substring(1);
        return parser.parse("t", "t.json", withAuth.getBytes(StandardCharsets.UTF_8));
    }

    TenantConfigException failure(String json) {
        return assertThrows(TenantConfigException.class, () -> parse(json));
    }
}
