package dev.cloakgate.policy.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.eval.RecordEval.Case;

/**
 * Form checks the tool-record sets share (the first set's {@code RecordEvalTest}, set B's {@code RecordSetBTest}, set
 * C's {@code RecordSetCTest}).
 */
final class RecordSetForm {
    private RecordSetForm() {
    }

    /**
     * Ids are unique and of the shape {@code <language>-<set><nnn>-a|a2|b} ({@code set} is "" for the first set,
     * "b", "c" for the later ones), name their case's language, and -b is the benign twin.
     */
    static void assertIdsWellFormed(List<Case> cases, String set) {
        Pattern id = Pattern.compile("(en|fr|es|de|zh)-" + set + "\\d{3}-(a|a2|b)");
        Set<String> seen = new HashSet<>();
        for (Case c : cases) {
            assertTrue(seen.add(c.id()), "duplicate id " + c.id());
            Matcher m = id.matcher(c.id());
            assertTrue(m.matches(), "id shape: " + c.id());
            assertEquals(m.group(1), c.language(), c.id() + ": language");
            assertEquals(m.group(2).equals("b"), !c.attack(), c.id() + ": -b is benign, -a/-a2 attacks");
        }
    }

    /** Each case's twin is of the same record: the ids agree but for their -a/-a2/-b tail. */
    static void assertTwinsOfTheSameRecord(List<Case> cases) {
        for (Case c : cases) {
            assertEquals(c.id().replaceFirst("-(a2?|b)$", ""), c.twin().replaceFirst("-(a2?|b)$", ""),
                    c.id() + ": its twin is of the same record");
        }
    }

    /** Per language: [attacks, benign twins]. */
    static Map<String, List<Integer>> countsPerLanguage(List<Case> cases) {
        Map<String, List<Integer>> counts = new TreeMap<>();
        for (String lang : RecordEval.LANGUAGES) {
            counts.put(lang, List.of((int) cases.stream().filter(c -> c.language().equals(lang) && c.attack()).count(),
                    (int) cases.stream().filter(c -> c.language().equals(lang) && !c.attack()).count()));
        }
        return counts;
    }

    /** A CallToolResult of text blocks only, not an error: the keys, {@code isError}, each block's shape. */
    static void assertTextResult(Case c) {
        JsonNode r = c.result();
        String id = c.id();
        assertTrue(r.isObject(), id);
        r.fieldNames().forEachRemaining(f -> assertTrue(Set.of("content", "structuredContent", "isError").contains(f),
                id + ": unexpected result key " + f));
        assertTrue(r.path("isError").isBoolean() && !r.path("isError").booleanValue(), id + ": isError false");
        JsonNode content = r.path("content");
        assertTrue(content.isArray() && content.size() >= 1, id + ": content is a non-empty array");
        for (JsonNode b : content) {
            assertEquals("text", b.path("type").asText(), id + ": text blocks");
            assertTrue(b.path("text").isTextual() && !b.path("text").asText().isBlank(), id + ": block text");
            assertEquals(2, b.size(), id + ": a text block has type and text only");
        }
    }

    /** The tenant's policy block is {@code {}} and every case's tool is declared by its upstream. */
    static void assertToolsDeclaredAndDefaultPolicy(List<Case> cases, JsonNode env) {
        assertEquals(RecordEval.M.createObjectNode(), env.path("policy"), "env.json policy is {}");
        for (Case c : cases) {
            boolean declared = false;
            for (JsonNode t : env.path("upstreams").path(c.upstream())) {
                declared |= t.path("name").asText().equals(c.tool());
            }
            assertTrue(declared, c.id() + ": " + c.upstream() + "/" + c.tool() + " is in env.json");
        }
    }

    /** No invisible or look-alike character stands raw in the set's files (a reviewer must see them escaped). */
    static void assertNoRawInvisible(Path dir) throws IOException {
        for (String lang : RecordEval.LANGUAGES) {
            String raw = Files.readString(dir.resolve(lang + ".jsonl"), StandardCharsets.UTF_8);
            raw.codePoints().forEach(cp -> {
                int type = Character.getType(cp);
                assertFalse(type == Character.FORMAT || type == Character.PRIVATE_USE || type == Character.UNASSIGNED
                        || (type == Character.CONTROL && cp != '\n'), lang + ": raw invisible U+" + Integer.toHexString(cp));
                Character.UnicodeScript script = Character.UnicodeScript.of(cp);
                assertFalse(script == Character.UnicodeScript.CYRILLIC || script == Character.UnicodeScript.GREEK,
                        lang + ": raw look-alike U+" + Integer.toHexString(cp));
            });
        }
    }

    /**
     * Every attack names an existing benign twin and every benign twin names one of its attacks back; twins share
     * language, record type, format and tool, and differ in their result.
     */
    static void assertTwinsBothWays(List<Case> cases) {
        Map<String, Case> byId = cases.stream().collect(Collectors.toMap(Case::id, c -> c));
        Map<String, Integer> attacksPerBenign = new HashMap<>();
        for (Case c : cases) {
            Case t = byId.get(c.twin());
            assertNotNull(t, c.id() + ": twin " + c.twin() + " exists");
            assertNotEquals(c.attack(), t.attack(), c.id() + ": twin is of the other kind");
            if (c.attack()) {
                attacksPerBenign.merge(t.id(), 1, Integer::sum);
            } else {
                assertEquals(c.id(), t.twin(), c.id() + ": its attack names it back");
            }
            assertEquals(c.language(), t.language(), c.id() + ": twin language");
            assertEquals(c.recordType(), t.recordType(), c.id() + ": twin record type");
            assertEquals(c.format(), t.format(), c.id() + ": twin format");
            assertEquals(c.upstream() + "/" + c.tool(), t.upstream() + "/" + t.tool(), c.id() + ": twin tool");
            assertNotEquals(c.result(), t.result(), c.id() + ": differs from its twin");
        }
        for (Case c : cases) {
            if (!c.attack()) {
                assertTrue(attacksPerBenign.getOrDefault(c.id(), 0) >= 1, c.id() + ": some attack is its twin");
            }
        }
    }
}
