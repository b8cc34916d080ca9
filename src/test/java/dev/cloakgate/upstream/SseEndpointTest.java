package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;

import org.junit.jupiter.api.Test;

/** The endpoint an HTTP+SSE server names is taken only as a path and query on the configured URL's origin. */
class SseEndpointTest {
    private static final URI BASE = URI.create("http://127.0.0.1:8931/mcp/sse");

    @Test
    void pathsOnTheSameOriginAreKept() {
        assertEquals("/message?sessionId=ab-12", SseLink.sameOrigin(BASE, "/message?sessionId=ab-12"));
        assertEquals("/mcp/message?sessionId=1", SseLink.sameOrigin(BASE, "message?sessionId=1"));
        assertEquals("/m?x=%20y", SseLink.sameOrigin(BASE, "http://127.0.0.1:8931/m?x=%20y"));
        assertEquals("/m", SseLink.sameOrigin(BASE, "HTTP://127.0.0.1:8931/m#fragment"));
        assertEquals("/", SseLink.sameOrigin(URI.create("https://mcp.example.com/sse"), "https://MCP.example.com:443"));
    }

    @Test
    void anythingElseIsRefused() {
        for (String hostile : new String[] { "//evil.example/m", "http://evil.example:8931/m", "https://127.0.0.1:8931/m",
                "http://127.0.0.1:8932/m", "http://127.0.0.1/m", "http://user@127.0.0.1:8931/m",
                "http://127.0.0.1:8931@evil.example/m", "/\\evil.example/m", "\\\\evil.example\\m", " /m", "/m x",
                "/m\t", "/m\n", "/caf\u00e9", "javascript:alert(1)", "file:///etc/passwd", "", "http://[::1]:8931/m",
                "/" + "a".repeat(3000) }) {
            assertNull(SseLink.sameOrigin(BASE, hostile), hostile);
        }
    }
}
