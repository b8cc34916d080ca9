package dev.cloakgate.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

class PolicyEngineTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static Control asking(String name, Action a, String reason) {
        return new Control() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean appliesTo(Stage stage) {
                return stage == Stage.REQUEST;
            }

            @Override
            public void inspect(Subject s, Findings out) {
                if (a != Action.ALLOW) {
                    out.add(a, reason, "because");
                }
            }
        };
    }

    private static Subject call(String json) throws Exception {
        return new Subject(Stage.REQUEST, "s", "fs", "fs__write", "write", null, (ObjectNode) M.readTree(json), false);
    }

    @Test
    void mostSevereWinsAndEveryFindingIsKept() throws Exception {
        PolicyEngine e = new PolicyEngine(List.of(asking("a", Action.REDACT, "r1"), asking("b", Action.BLOCK, "r2"),
                asking("c", Action.REQUIRE_APPROVAL, "r3"), asking("d", Action.ALLOW, "none")));
        Decision d = e.evaluate(call("{\"x\":1}"));
        Decision.Block b = assertInstanceOf(Decision.Block.class, d);
        assertEquals("r2", b.reason());
        assertEquals(3, d.findings().size());
        assertEquals(List.of("a", "b", "c"), d.controls());
    }

    @Test
    void approvalCarriesTheFingerprintOfTheCallAsSent() throws Exception {
        PolicyEngine e = new PolicyEngine(List.of(asking("c", Action.REQUIRE_APPROVAL, "approval_required")));
        var d1 = assertInstanceOf(Decision.RequireApproval.class, e.evaluate(call("{\"a\":1,\"b\":[2,3]}")));
        var d2 = assertInstanceOf(Decision.RequireApproval.class, e.evaluate(call("{\"b\":[2,3],\"a\":1}")));
        var d3 = assertInstanceOf(Decision.RequireApproval.class, e.evaluate(call("{\"b\":[3,2],\"a\":1}")));
        assertEquals(d1.fingerprint(), d2.fingerprint(), "key order does not change the call");
        assertNotEquals(d1.fingerprint(), d3.fingerprint());
        assertEquals(64, d1.fingerprint().length());
    }

    @Test
    void aControlThatFailsBlocks() throws Exception {
        Control broken = new Control() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public boolean appliesTo(Stage stage) {
                return true;
            }

            @Override
            public void inspect(Subject s, Findings out) {
                throw new IllegalStateException("boom");
            }
        };
        Decision d = new PolicyEngine(List.of(broken)).evaluate(call("{}"));
        assertEquals("control_failed", assertInstanceOf(Decision.Block.class, d).reason());
    }

    @Test
    void nothingFiredIsAllow() throws Exception {
        Decision d = new PolicyEngine(List.of(asking("a", Action.ALLOW, "x"))).evaluate(call("{}"));
        assertInstanceOf(Decision.Allow.class, d);
        assertEquals(List.of(), d.controls());
    }
}
