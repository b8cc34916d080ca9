package dev.cloakgate.gate;

import static dev.cloakgate.gate.GateKit.bytes;
import static dev.cloakgate.gate.GateKit.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;

class ToolContractTest {
    private static final String A = "spec.tools.x__y.arguments.a";

    /** A contract whose one tool takes one required argument {@code a} with {@code schema}. */
    static ToolContract contract(String schema) {
        return ToolContract.parse(bytes("{\"apiVersion\":\"cloakgate.dev/v1alpha1\",\"kind\":\"ToolContract\","
                + "\"metadata\":{\"name\":\"t\"},\"spec\":{\"tools\":{\"x__y\":{\"arguments\":{\"a\":" + schema
                + "},\"required\":[\"a\"]}}}}"), "test contract");
    }

    static Violation check(String schema, String value) {
        return contract(schema).check("x__y", json("{\"a\":" + value + "}"), GateKit.trustedContext());
    }

    /** Each keyword: its schema, a value that keeps it, one that breaks it, the reason and the path named. */
    static Stream<Arguments> keywords() {
        return Stream.of(
                Arguments.of("{\"type\":\"string\"}", "\"s\"", "1", "argument_type", A),
                Arguments.of("{\"type\":\"integer\"}", "1.0", "1.5", "argument_type", A),
                Arguments.of("{\"type\":\"number\"}", "1.5", "\"1.5\"", "argument_type", A),
                Arguments.of("{\"type\":\"boolean\"}", "true", "\"true\"", "argument_type", A),
                Arguments.of("{\"type\":\"object\"}", "{}", "[]", "argument_type", A),
                Arguments.of("{\"type\":\"array\"}", "[]", "{}", "argument_type", A),
                Arguments.of("{\"type\":\"null\"}", "null", "0", "argument_type", A),
                Arguments.of("{\"type\":[\"string\",\"null\"]}", "null", "false", "argument_type", A),
                Arguments.of("{\"enum\":[\"qualified\",\"review\"]}", "\"review\"", "\"won\"", "argument_enum", A),
                Arguments.of("{\"enum\":[1]}", "1.0", "2", "argument_enum", A),
                Arguments.of("{\"const\":{\"k\":[1,\"v\"]}}", "{\"k\":[1.0,\"v\"]}", "{\"k\":[1,\"w\"]}", "argument_const", A),
                Arguments.of("{\"minLength\":2}", "\"ab\"", "\"a\"", "argument_length", A),
                // two emoji are 2 scalar values (4 UTF-16 units)
                Arguments.of("{\"maxLength\":2}", "\"\\ud83d\\ude00\\ud83d\\ude00\"", "\"abc\"", "argument_length", A),
                // anchored: a match inside the value is not a match of the value
                Arguments.of("{\"pattern\":\"[a-z]+\"}", "\"abc\"", "\"abc;rm\"", "argument_pattern", A),
                Arguments.of("{\"minimum\":1}", "1", "0.5", "argument_range", A),
                Arguments.of("{\"maximum\":10}", "10.0", "10.000001", "argument_range", A),
                Arguments.of("{\"properties\":{\"s\":{\"type\":\"string\"}}}", "{\"s\":\"x\"}", "{\"s\":1}",
                        "argument_type", A + ".properties.s"),
                Arguments.of("{\"properties\":{\"s\":{}},\"required\":[\"s\"]}", "{\"s\":1}", "{}",
                        "argument_missing", A + ".properties.s"),
                // closed by default: an undeclared property is refused, named by the closed schema, not its name
                Arguments.of("{\"properties\":{\"s\":{}}}", "{\"s\":1}", "{\"s\":1,\"secret-name\":2}",
                        "argument_not_allowed", A),
                Arguments.of("{\"additionalProperties\":false}", "{}", "{\"z\":1}", "argument_not_allowed", A),
                Arguments.of("{\"additionalProperties\":{\"type\":\"integer\"}}", "{\"z\":1}", "{\"z\":\"x\"}",
                        "argument_type", A + ".additionalProperties"),
                Arguments.of("{\"additionalProperties\":true,\"minProperties\":1}", "{\"z\":{\"deep\":1}}", "{}",
                        "argument_count", A),
                Arguments.of("{\"additionalProperties\":true,\"maxProperties\":1}", "{\"z\":1}", "{\"z\":1,\"y\":2}",
                        "argument_count", A),
                Arguments.of("{\"items\":{\"type\":\"string\"}}", "[\"a\",\"b\"]", "[\"a\",1]", "argument_type", A + ".items"),
                Arguments.of("{\"minItems\":1}", "[1]", "[]", "argument_count", A),
                Arguments.of("{\"maxItems\":1}", "[1]", "[1,2]", "argument_count", A),
                // an array without items: anything, but objects in it are closed
                Arguments.of("{\"type\":\"array\"}", "[1,[2,{}]]", "[[{\"k\":1}]]", "argument_not_allowed", A + ".items"),
                Arguments.of("{\"bindTo\":\"task.record\"}", "\"lead-42\"", "\"lead-43\"", "task_binding_mismatch", A),
                // a key the task context does not have is a denial, whatever the value
                Arguments.of("{\"bindTo\":\"task.owner.id\"}", null, "\"anyone\"", "task_binding_mismatch", A));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keywords")
    void eachKeywordIsHonouredAndViolated(String schema, String good, String bad, String reason, String path) {
        if (good != null) {
            assertNull(check(schema, good), "kept: " + good);
        }
        Violation v = check(schema, bad);
        assertEquals(new Violation(reason, path), v);
        String shown = bad.replace("\"", "");
        assertFalse(shown.length() > 2 && v.gatePath().contains(shown), "the path never names the value");
    }

    @Test
    void theToolsArgumentsAreClosedAndRequired() {
        ToolContract c = GateKit.crm();
        TaskContext ctx = GateKit.trustedContext();
        JsonNode good = json("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"review\",\"note\":\"ok\"}}");
        assertNull(c.check("crm__patch", good, ctx));
        JsonNode extra = ((com.fasterxml.jackson.databind.node.ObjectNode) good.deepCopy()).put("dryRun", false);
        assertEquals(new Violation("argument_not_allowed", "spec.tools.crm__patch.arguments"), c.check("crm__patch", extra, ctx));
        JsonNode missing = ((com.fasterxml.jackson.databind.node.ObjectNode) good.deepCopy()).without("record");
        assertEquals(new Violation("argument_missing", "spec.tools.crm__patch.arguments.record"), c.check("crm__patch", missing, ctx));
        assertEquals(new Violation("argument_type", "spec.tools.crm__patch.arguments"), c.check("crm__patch", json("[]"), ctx));
        assertEquals(new Violation("argument_enum", "spec.tools.crm__patch.arguments.patch.properties.stage"),
                c.check("crm__patch", json("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"won\"}}"), ctx));
        assertEquals(new Violation("argument_count", "spec.tools.crm__patch.arguments.patch"),
                c.check("crm__patch", json("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{}}"), ctx));
        // absent arguments are an empty object: every required one is missing
        assertEquals("argument_missing", c.check("crm__patch", null, ctx).reason());
        // a tool the contract does not declare: nothing to check here
        assertNull(c.check("crm__delete", json("{\"x\":1}"), ctx));
        assertTrue(c.rule("crm__patch").sideEffect() && c.rule("crm__patch").requiresApproval());
        assertFalse(c.rule("crm__search").sideEffect() || c.rule("crm__search").requiresApproval());
    }

    @Test
    void bindToNeedsATaskContext() {
        ToolContract c = GateKit.crm();
        JsonNode call = json("{\"tenant\":\"demo-co\",\"record\":\"lead-42\",\"patch\":{\"stage\":\"review\"}}");
        assertEquals(new Violation("task_context_missing", "spec.tools.crm__patch.arguments.tenant"), c.check("crm__patch", call, null));
    }

    @Test
    void unknownKeywordsAndKeysAreParseErrorsNamingTheirPath() {
        assertMessage("spec.tools.x__y.arguments.a.minLenght: unknown keyword", () -> contract("{\"minLenght\":1}"));
        assertMessage("spec.tools.x__y.arguments.a.properties.s.items.format: unknown keyword",
                () -> contract("{\"properties\":{\"s\":{\"items\":{\"format\":\"email\"}}}}"));
        assertMessage("spec.tools.x__y.arguments.a.pattern: is not a valid regular expression", () -> contract("{\"pattern\":\"[a-\"}"));
        assertMessage("spec.tools.x__y.arguments.a.type: unknown type", () -> contract("{\"type\":\"int\"}"));
        assertMessage("spec.tools.x__y.arguments.a: minLength is above maxLength", () -> contract("{\"minLength\":3,\"maxLength\":2}"));
        assertMessage("spec.tools.x__y.arguments.a.required: names t, which is not declared",
                () -> contract("{\"properties\":{\"s\":{}},\"required\":[\"t\"]}"));
        assertMessage("spec.tools.x__y.arguments.a.bindTo: must be task.<key>", () -> contract("{\"bindTo\":\"session.x\"}"));
        assertMessage("spec.tools.x__y.arguments.a.minItems: must be a non-negative integer", () -> contract("{\"minItems\":-1}"));
        String tool = "{\"apiVersion\":\"cloakgate.dev/v1alpha1\",\"kind\":\"ToolContract\",\"metadata\":{\"name\":\"t\"},"
                + "\"spec\":{\"tools\":{\"x__y\":{\"sideEfect\":true}}}}";
        assertMessage("spec.tools.x__y.sideEfect: unknown key", () -> ToolContract.parse(bytes(tool), "test contract"));
        assertMessage("apiVersion: must be one of", () -> ToolContract.parse(bytes(
                "{\"apiVersion\":\"v1\",\"kind\":\"ToolContract\",\"metadata\":{\"name\":\"t\"},\"spec\":{\"tools\":{}}}"), "test contract"));
        assertMessage("metadata.labels: unknown key", () -> ToolContract.parse(bytes("{\"apiVersion\":\"cloakgate.dev/v1alpha1\","
                + "\"kind\":\"ToolContract\",\"metadata\":{\"name\":\"t\",\"labels\":{}},\"spec\":{\"tools\":{}}}"), "test contract"));
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable parse) {
        String message = assertThrows(IllegalArgumentException.class, parse).getMessage();
        assertTrue(message.startsWith("test contract: " + expected), message);
    }

    @Test
    void theReferenceIsTheDomainHashOfTheContractInEitherSyntax() {
        ToolContract yaml = GateKit.crm();
        JsonNode tree = GateDocuments.read(bytes(GateKit.CRM_CONTRACT), "c");
        ToolContract json = ToolContract.parse(dev.cloakgate.crypto.Jcs.canonicalize(tree), "c");
        assertEquals("policy:crm-tools@sha256:" + Domains.hash(Domains.TOOL_CONTRACT, tree), yaml.reference());
        assertEquals(yaml.reference(), json.reference());
        ToolContract edited = ToolContract.parse(bytes(GateKit.CRM_CONTRACT.replace("maxLength: 280", "maxLength: 281")), "c");
        assertNotEquals(yaml.reference(), edited.reference());
    }

    @Test
    void aPatternThatBacktracksBadlyRefusesInsteadOfHangingTheGateway() {
        ToolContract c = contract("{\"type\":\"string\",\"pattern\":\"(a+)+b\"}");
        String evil = "a".repeat(5_000) + "!";
        Violation v = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> c.check("x__y", json("{\"a\":\"" + evil + "\"}"), null));
        assertEquals(new Violation("argument_pattern", A), v);
        assertNull(c.check("x__y", json("{\"a\":\"aaab\"}"), null));
        // a repetition java.util.regex recurses on, over a long value: refused, not a StackOverflowError
        ToolContract alternation = contract("{\"type\":\"string\",\"pattern\":\"(a|b)*\"}");
        assertEquals("argument_pattern", alternation.check("x__y", json("{\"a\":\"" + "ab".repeat(100_000) + "\"}"), null).reason());
        assertNull(alternation.check("x__y", json("{\"a\":\"abba\"}"), null));
    }

    @Test
    void deepValuesAreRefusedAtTheBoundNotFollowedForever() {
        ToolContract c = contract("{\"type\":\"array\"}");
        String deep = "[".repeat(ArgumentRule.MAX_VALUE_DEPTH + 5) + "]".repeat(ArgumentRule.MAX_VALUE_DEPTH + 5);
        JsonNode value = json("{\"a\":" + deep + "}");
        assertEquals(new Violation("argument_type", A + ".items"), c.check("x__y", value, null));
    }
}
