package dev.cloakgate.upstream.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Issue 16: the Bearer parameters of an upstream's WWW-Authenticate (RFC 6750 §3, RFC 9728 §5.1). */
class ChallengeTest {

    @Test
    void quotedAndBareParametersAreRead() {
        Challenge c = Challenge.parse("Bearer error=\"insufficient_scope\", scope=\"mcp:basic mcp:write\", "
                + "resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource/mcp\"");
        assertTrue(c.insufficientScope());
        assertEquals("mcp:basic mcp:write", c.scope());
        assertEquals("https://mcp.example/.well-known/oauth-protected-resource/mcp", c.resourceMetadata());
        assertEquals("invalid_token", Challenge.parse("Bearer error=invalid_token").error());
    }

    @Test
    void onlyTheBearerChallengeCounts() {
        Challenge c = Challenge.parse("Basic realm=\"x\", scope=\"wrong\", Bearer scope=\"right\", DPoP scope=\"no\"");
        assertEquals("right", c.scope());
        assertNull(Challenge.parse("Basic realm=\"x\", scope=\"s\"").scope());
        assertEquals(Challenge.NONE, Challenge.parse(null));
    }

    @Test
    void escapesAndAnUnterminatedTail() {
        assertEquals("a\"b", Challenge.parse("Bearer scope=\"a\\\"b\"").scope());
        Challenge c = Challenge.parse("Bearer scope=\"ok\", resource_metadata=\"https://x");
        assertEquals("ok", c.scope());
        assertNull(c.resourceMetadata());
    }
}
