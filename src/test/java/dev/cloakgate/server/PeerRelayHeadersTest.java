package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertEquals;


import org.junit.jupiter.api.Test;

import io.vertx.core.MultiMap;

/** Issue 17: what a forward carries to the owner, and what comes back: end-to-end headers only, never a peer header. */
class PeerRelayHeadersTest {

    @Test
    void hopByHopHeadersTheOnesConnectionNamesAndAnyPeerHeaderStayBehind() {
        MultiMap in = MultiMap.caseInsensitiveMultiMap()
                .add("Authorization", "Bearer agent-token")
                .add("Mcp-Session-Id", "c1.abc")
                .add("MCP-Protocol-Version", "2025-11-25")
                .add("Last-Event-ID", "17")
                .add("Accept", "application/json, text/event-stream")
                .add("Content-Type", "application/json")
                .add("Connection", "keep-alive, X-Private-Hop")
                .add("X-Private-Hop", "1")
                .add("Keep-Alive", "timeout=5")
                .add("Transfer-Encoding", "chunked")
                .add("TE", "trailers")
                .add("Upgrade", "h2c")
                .add("Proxy-Authorization", "Basic eA==")
                .add("Host", "front.example")
                .add("Content-Length", "12")
                .add("x-cloakgate-peer", "v1;r9;1;forged");
        MultiMap out = PeerRelay.endToEnd(in);
        assertEquals(java.util.Set.of("Authorization", "Mcp-Session-Id", "MCP-Protocol-Version", "Last-Event-ID", "Accept",
                "Content-Type"), java.util.Set.copyOf(out.names()));
        assertEquals("Bearer agent-token", out.get("authorization"));
    }
}
