package dev.cloakgate.policy.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Keeps the labelled policy corpus well-formed: every case parses as strict JSON, uses only the allowed
 * vocabulary, has the fields its stage needs, names a tool that exists, and the corpus as a whole keeps its
 * minimum size and spread. It checks the labels' form, never whether any control passes a case.
 */
class CorpusHygieneTest {
    static final Path ROOT = Path.of("src/test/resources/policy/corpus");

    static final Set<String> KINDS = Set.of("attack", "benign");
    static final Set<String> STAGES = Set.of("discovery", "request", "response");
    static final Set<String> ACTIONS = Set.of("allow", "redact", "require_approval", "block");
    static final Set<String> CONTROLS = Set.of("tool_allowlist", "tool_shadowing", "destructive_action",
            "schema_conformance", "path_sandbox", "budget", "secret_disclosure", "egress_control",
            "instruction_injection");
    static final Set<String> CLASSES = Set.of(
            "LLM01:2025 Prompt Injection",
            "LLM02:2025 Sensitive Information Disclosure",
            "LLM05:2025 Improper Output Handling",
            "LLM06:2025 Excessive Agency",
            "LLM10:2025 Unbounded Consumption",
            "MCP Tool Poisoning",
            "MCP Tool Shadowing",
            "MCP Rug Pull",
            "MCP Path Traversal",
            "MCP Data Exfiltration (egress)",
            "MCP Schema Violation / Argument Injection",
            "MCP Privilege Escalation via Destructive Tool");
    /** Delivery to the stage it belongs to; null means any stage. */
    static final Map<String, String> DELIVERIES = new HashMap<>();
    static {
        DELIVERIES.put("tool_description", "discovery");
        DELIVERIES.put("schema_description", "discovery");
        DELIVERIES.put("tool_name", "discovery");
        DELIVERIES.put("tool_result_text", "response");
        DELIVERIES.put("structured_content", "response");
        DELIVERIES.put("resource_contents", "response");
        DELIVERIES.put("resource_link", "response");
        DELIVERIES.put("error_message", "response");
        DELIVERIES.put("arguments", "request");
        DELIVERIES.put("encoded", null);
    }
    static final Set<String> FIELDS = Set.of("id", "kind", "class", "delivery", "stage", "upstream", "tool",
            "declaration", "arguments", "result", "error", "pad_bytes", "expected", "controls", "note");

    static final ObjectMapper STRICT = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    record Case(Path file, String dir, JsonNode json) {
        String id() {
            return json.path("id").asText();
        }

        String text(String field) {
            return json.path(field).asText(null);
        }
    }

    static JsonNode env;
    static List<Case> cases;

    @BeforeAll
    static void load() throws IOException {
        env = parse(ROOT.resolve("env.json"));
        cases = new ArrayList<>();
        for (String dir : List.of("attacks", "benign")) {
            try (Stream<Path> files = Files.list(ROOT.resolve(dir))) {
                for (Path f : files.sorted().toList()) {
                    assertTrue(f.getFileName().toString().endsWith(".json"), "only .json files in " + dir + ": " + f);
                    cases.add(new Case(f, dir, parse(f)));
                }
            }
        }
    }

    static JsonNode parse(Path f) {
        try {
            String s = Files.readString(f, StandardCharsets.UTF_8);
            assertTrue(s.startsWith("{\n  \""), f + " is pretty-printed (two-space indent)");
            return STRICT.readTree(s);
        } catch (IOException e) {
            return fail(f + " is not strict JSON: " + e.getMessage());
        }
    }

    @Test
    void environmentIsConsistent() {
        JsonNode ups = env.path("upstreams");
        assertTrue(ups.isObject() && ups.size() >= 5, "env.json has upstreams");
        Map<String, JsonNode> exposed = new HashMap<>();
        ups.fields().forEachRemaining(u -> {
            assertTrue(u.getValue().size() >= 3 && u.getValue().size() <= 8, u.getKey() + " declares 3-8 tools");
            for (JsonNode t : u.getValue()) {
                checkDeclaration(u.getKey() + " in env.json", t);
                assertTrue(exposed.put(u.getKey() + "__" + t.path("name").asText(), t) == null,
                        "duplicate tool " + t.path("name") + " in " + u.getKey());
            }
        });
        JsonNode policy = env.path("policy");
        assertEquals("withhold", policy.path("discovery").asText());
        for (JsonNode n : policy.path("tool_allowlist")) {
            assertTrue(exposed.containsKey(n.asText()), "allowlisted tool is declared: " + n);
        }
        Set<String> destructive = new HashSet<>();
        policy.path("destructive_tools").forEach(n -> destructive.add(n.asText()));
        exposed.forEach((name, t) -> assertEquals(t.path("annotations").path("destructiveHint").asBoolean(false),
                destructive.contains(name), name + ": destructive_tools agrees with destructiveHint"));
        assertTrue(policy.path("path_roots").size() >= 1, "path_roots");
        assertTrue(policy.path("egress_allowlist").size() >= 1, "egress_allowlist");
        for (String k : List.of("session_calls", "tool_calls", "tenant_calls_per_minute", "output_bytes",
                "breaker_errors", "breaker_seconds")) {
            assertTrue(policy.path("budget").path(k).canConvertToInt() && policy.path("budget").path(k).asInt() > 0,
                    "budget." + k);
        }
    }

    @Test
    void idsAreUniqueAndMatchFileNames() {
        Set<String> seen = new HashSet<>();
        for (Case c : cases) {
            assertTrue(c.json().isObject(), c.file() + " is an object");
            assertEquals(c.file().getFileName().toString(), c.id() + ".json", "file name = id + .json");
            assertTrue(seen.add(c.id()), "duplicate id " + c.id());
            assertEquals(c.dir(), c.text("kind").equals("attack") ? "attacks" : "benign",
                    c.id() + " lives in the folder of its kind");
        }
    }

    @Test
    void valuesComeFromTheAllowedSets() {
        for (Case c : cases) {
            String id = c.id();
            c.json().fieldNames().forEachRemaining(f -> assertTrue(FIELDS.contains(f), id + ": unknown field " + f));
            assertTrue(KINDS.contains(c.text("kind")), id + ": kind " + c.text("kind"));
            assertTrue(STAGES.contains(c.text("stage")), id + ": stage " + c.text("stage"));
            assertTrue(DELIVERIES.containsKey(c.text("delivery")), id + ": delivery " + c.text("delivery"));
            assertTrue(ACTIONS.contains(c.text("expected")), id + ": expected " + c.text("expected"));
            assertTrue(CLASSES.contains(c.text("class")), id + ": class " + c.text("class"));
            String stage = DELIVERIES.get(c.text("delivery"));
            assertTrue(stage == null || stage.equals(c.text("stage")),
                    id + ": delivery " + c.text("delivery") + " belongs to stage " + stage);
            if (c.text("kind").equals("attack")) {
                assertFalse(c.text("expected").equals("allow"), id + ": an attack requires more than allow");
            } else {
                assertEquals("allow", c.text("expected"), id + ": a benign near-miss expects allow");
            }
            JsonNode controls = c.json().path("controls");
            assertTrue(controls.isArray() && controls.size() > 0, id + ": controls is a non-empty array");
            Set<String> distinct = new HashSet<>();
            for (JsonNode n : controls) {
                assertTrue(CONTROLS.contains(n.asText()), id + ": unknown control " + n);
                assertTrue(distinct.add(n.asText()), id + ": control listed twice " + n);
            }
            String note = c.text("note");
            assertTrue(note != null && note.length() >= 20, id + ": note says why");
            JsonNode pad = c.json().get("pad_bytes");
            assertTrue(pad == null || (pad.isIntegralNumber() && pad.asLong() >= 0), id + ": pad_bytes");
        }
    }

    @Test
    void sizeAndSpread() {
        List<Case> attacks = cases.stream().filter(c -> c.text("kind").equals("attack")).toList();
        long benign = cases.size() - attacks.size();
        assertTrue(attacks.size() >= 45, "at least 45 attacks: " + attacks.size());
        assertTrue(benign >= 45, "at least 45 benign near-misses: " + benign);
        Map<String, Integer> perClass = new TreeMap<>();
        Map<String, Integer> perControl = new TreeMap<>();
        CONTROLS.forEach(k -> perControl.put(k, 0));
        for (Case c : attacks) {
            perClass.merge(c.text("class"), 1, Integer::sum);
            c.json().path("controls").forEach(n -> perControl.merge(n.asText(), 1, Integer::sum));
        }
        assertTrue(perClass.size() >= 10, "attacks span at least 10 classes: " + perClass);
        perControl.forEach((k, n) -> assertTrue(n >= 3, "control " + k + " has at least 3 attacks: " + n));
    }

    @Test
    void eachStageHasWhatItNeeds() {
        for (Case c : cases) {
            String id = c.id();
            JsonNode j = c.json();
            switch (c.text("stage")) {
                case "discovery" -> {
                    assertTrue(j.path("declaration").isObject(), id + ": discovery case has a declaration");
                    checkDeclaration(id, j.get("declaration"));
                    assertEquals(c.text("tool"), j.get("declaration").path("name").asText(),
                            id + ": declaration name = tool");
                }
                case "request" -> assertTrue(j.path("arguments").isObject(), id + ": request case has arguments");
                case "response" -> {
                    boolean result = j.has("result");
                    boolean error = j.has("error");
                    assertTrue(result ^ error, id + ": response case has result or error, not both");
                    if (result) {
                        JsonNode content = j.path("result").path("content");
                        assertTrue(content.isArray() && content.size() > 0, id + ": result.content is a non-empty array");
                        for (JsonNode block : content) {
                            assertTrue(Set.of("text", "image", "audio", "resource", "resource_link")
                                    .contains(block.path("type").asText()), id + ": content block type " + block.path("type"));
                        }
                    } else {
                        assertTrue(j.path("error").path("code").isInt(), id + ": error.code is an integer");
                        assertTrue(j.path("error").path("message").isTextual(), id + ": error.message is a string");
                    }
                    if (j.has("pad_bytes")) {
                        assertTrue(result && hasBlock(j, "text"), id + ": pad_bytes needs a text block to pad");
                    }
                }
                default -> fail(id + ": stage");
            }
            if (!c.text("stage").equals("response")) {
                assertFalse(j.has("result") || j.has("error") || j.has("pad_bytes"), id + ": result fields only at response");
            }
            switch (c.text("delivery")) {
                case "structured_content" -> assertTrue(j.path("result").path("structuredContent").isObject(),
                        id + ": structured_content delivery has result.structuredContent");
                case "resource_contents" -> assertTrue(hasBlock(j, "resource"), id + ": has an embedded resource block");
                case "resource_link" -> assertTrue(hasBlock(j, "resource_link"), id + ": has a resource_link block");
                case "error_message" -> assertTrue(j.has("error") || j.path("result").path("isError").asBoolean(false),
                        id + ": error_message delivery is a JSON-RPC error or an isError result");
                default -> {
                }
            }
        }
    }

    @Test
    void upstreamAndToolExist() {
        for (Case c : cases) {
            String id = c.id();
            JsonNode tools = env.path("upstreams").path(c.text("upstream"));
            assertTrue(tools.isArray(), id + ": upstream " + c.text("upstream") + " is in env.json");
            boolean declared = false;
            for (JsonNode t : tools) {
                declared |= t.path("name").asText().equals(c.text("tool"));
            }
            JsonNode own = c.json().get("declaration");
            declared |= own != null && own.path("name").asText().equals(c.text("tool"));
            assertTrue(declared, id + ": tool " + c.text("tool") + " is declared by " + c.text("upstream"));
            if (c.text("stage").equals("request")) {
                assertTrue(own == null, id + ": a request is checked against the env.json declaration");
            }
        }
    }

    @Test
    void keywordBaselineRuns() {
        // Not a quality gate: the baseline must merely accept every payload shape in the corpus.
        for (Case c : cases) {
            JsonNode j = c.json();
            JsonNode payload = j.has("declaration") && c.text("stage").equals("discovery") ? j.get("declaration")
                    : j.has("arguments") ? j.get("arguments") : j.has("result") ? j.get("result") : j.get("error");
            assertEquals(KeywordFilter.blocks(payload), KeywordFilter.firstMatch(payload) != null, c.id());
        }
    }

    private static boolean hasBlock(JsonNode j, String type) {
        for (JsonNode b : j.path("result").path("content")) {
            if (b.path("type").asText().equals(type)) {
                return true;
            }
        }
        return false;
    }

    private static void checkDeclaration(String where, JsonNode t) {
        assertTrue(t.path("name").isTextual() && !t.path("name").asText().isEmpty(), where + ": declaration name");
        assertTrue(t.path("description").isTextual(), where + ": declaration description");
        assertEquals("object", t.path("inputSchema").path("type").asText(), where + ": inputSchema is an object schema");
        assertTrue(!t.has("annotations") || t.get("annotations").isObject(), where + ": annotations is an object");
    }
}
