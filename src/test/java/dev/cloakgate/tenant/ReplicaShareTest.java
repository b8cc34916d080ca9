package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import dev.cloakgate.auth.PrincipalLimits;

/**
 * Issue 17: each replica enforces its share of the limits over many sessions, from the tenant file as parsed: a tenant's
 * sessions and stdio children, its calls per minute, each principal's calls and sessions; the limits of one session stay.
 */
class ReplicaShareTest {
    private static final String FILE = """
            {"upstreams": {"crm": {"url": "http://crm.internal:8080/mcp"}},
             "limits": {"max_sessions": 10, "max_stdio_children": 7},
             "policy": {"budget": {"session_calls": 100, "tool_calls": 50, "tenant_calls_per_minute": 600, "breaker_errors": 5}},
             "auth": {"mode": "bearer", "limits": {"calls_per_minute": 90, "sessions": 4},
                      "principals": {
                        "bot": {"roles": ["agent"], "tokens_sha256": ["%s"], "limits": {"calls_per_minute": 100, "sessions": 1}},
                        "ops": {"roles": ["operator"], "tokens_sha256": ["%s"]}}}}
            """.formatted("a".repeat(64), "b".repeat(64));

    private static TenantConfig parsed() throws Exception {
        return new TenantParser(EnvExpander.of(Map.of()), Path.of("/work")).parse("acme", "acme.json",
                FILE.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void threeReplicasEachEnforceAThirdRoundedUpOfEveryLimitOverManySessions() throws Exception {
        TenantConfig one = parsed();
        TenantConfig c = new ReplicaShare(3).apply(one);
        assertEquals(new TenantLimits(OptionalInt.of(4), OptionalInt.of(3)), c.limits());
        assertEquals(200, c.policy().budget().tenantCallsPerMinute());
        assertEquals(100, c.policy().budget().sessionCalls(), "a session's own limits stay exact");
        assertEquals(50, c.policy().budget().toolCalls());
        assertEquals(5, c.policy().budget().breakerErrors(), "an error count is not a rate");
        assertEquals(new PrincipalLimits(34, 1), c.auth().principals().get("bot").limits());
        assertEquals(new PrincipalLimits(30, 2), c.auth().principals().get("ops").limits(), "the block's defaults, shared");
        assertEquals(new PrincipalLimits(30, 2), c.auth().defaults());
        assertEquals(one.digest(), c.digest(), "the file's digest is the file's");
        assertEquals(one.upstreams(), c.upstreams());
    }

    @Test
    void oneReplicaChangesNothingAndNoLimitStaysNoLimit() throws Exception {
        TenantConfig one = parsed();
        assertSame(one, ReplicaShare.ONE.apply(one));
        assertEquals(0, new ReplicaShare(3).of(0), "0 means no limit");
        assertEquals(1, new ReplicaShare(3).of(1), "never below one");
        assertEquals(334, new ReplicaShare(3).of(1000));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaShare(0));
    }
}
