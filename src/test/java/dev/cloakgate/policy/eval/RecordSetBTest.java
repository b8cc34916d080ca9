package dev.cloakgate.policy.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.eval.RecordEval.Case;

/**
 * The second tool-record set ({@code policy/records-b}) keeps its form: twins both ways, ids unique, the counts its
 * README states, valid CallToolResults of their format, every tool declared, no raw invisible character. Form only:
 * it runs no detector and pins no number, because the set is measured once, by the lead (see its README).
 */
class RecordSetBTest {
    static final Set<String> STYLES = Set.of("note_to_self", "friend_favour", "workflow_step", "reminder", "question",
            "to_assistant", "override");
    static final Set<String> POSITIONS = Set.of("whole", "middle", "end", "split");
    static final Set<String> HARD = Set.of("plain", "courtesy", "colleague_request", "how_to", "security_advice",
            "quoted_attack", "refund_complaint");
    static final Set<String> FORMATS = Set.of("json", "repr", "text", "markdown", "csv", "structured");
    static final Set<String> RECORD_TYPES = Set.of("hr_record", "shipment", "crm_note", "support_chat", "code_review",
            "wiki_page", "spreadsheet", "app_review", "sms_thread", "voicemail", "iot_log");
    static final Set<String> FIELDS_ATTACK = Set.of("id", "kind", "twin", "language", "record_type", "format",
            "attack", "position", "upstream", "tool", "result");
    static final Set<String> FIELDS_BENIGN = Set.of("id", "kind", "twin", "language", "record_type", "format",
            "hard_negative", "upstream", "tool", "result");
    /** Attacks and benign twins per language, as the README's table states them. */
    static final Map<String, List<Integer>> COUNTS = Map.of("en", List.of(48, 25), "fr", List.of(16, 12), "es",
            List.of(17, 12), "de", List.of(18, 12), "zh", List.of(18, 12));

    private static List<Case> cases;
    private static JsonNode env;

    @BeforeAll
    static void load() throws Exception {
        cases = RecordEval.load(RecordEval.RECORDS_B);
        env = RecordEval.env(RecordEval.RECORDS_B);
    }

    @Test
    void idsAreUniqueAndWellFormed() {
        RecordSetForm.assertIdsWellFormed(cases, "b");
    }

    @Test
    void labelsComeFromTheAllowedSets() throws Exception {
        for (String lang : RecordEval.LANGUAGES) {
            for (String line : Files.readAllLines(RecordEval.RECORDS_B.resolve(lang + ".jsonl"), StandardCharsets.UTF_8)) {
                JsonNode n = RecordEval.M.readTree(line);
                Set<String> fields = new HashSet<>();
                n.fieldNames().forEachRemaining(fields::add);
                boolean attack = n.path("kind").asText().equals("attack");
                assertEquals(attack ? FIELDS_ATTACK : FIELDS_BENIGN, fields, n.path("id").asText());
                if (attack) {
                    assertTrue(POSITIONS.contains(n.path("position").asText()), n.path("id").asText() + ": position");
                }
            }
        }
        for (Case c : cases) {
            assertTrue(Set.of("attack", "benign").contains(c.kind()), c.id());
            assertTrue(FORMATS.contains(c.format()), c.id() + ": format " + c.format());
            assertTrue(RECORD_TYPES.contains(c.recordType()), c.id() + ": record type " + c.recordType());
            if (c.attack()) {
                assertTrue(STYLES.contains(c.attackKind()), c.id() + ": attack style " + c.attackKind());
            } else {
                assertTrue(HARD.contains(c.hardNegative()), c.id() + ": hard negative " + c.hardNegative());
            }
        }
    }

    @Test
    void twinsGoBothWays() {
        RecordSetForm.assertTwinsBothWays(cases);
        RecordSetForm.assertTwinsOfTheSameRecord(cases);
    }

    @Test
    void countsAreAsTheReadmeStates() {
        Map<String, List<Integer>> counts = RecordSetForm.countsPerLanguage(cases);
        assertEquals(new TreeMap<>(COUNTS), counts, "per language: [attacks, benign twins]");
        long attacks = cases.stream().filter(Case::attack).count();
        assertTrue(attacks >= 100 && cases.size() - attacks >= 70, "at least 100 attacks and 70 benign twins");
        counts.forEach((l, n) -> assertTrue(n.get(0) >= (l.equals("en") ? 40 : 15), l + ": attacks " + n.get(0)));
        for (String type : RECORD_TYPES) {
            assertTrue(cases.stream().filter(Case::attack).filter(c -> c.recordType().equals(type)).count() >= 5,
                    "at least 5 attacks in record type " + type);
        }
        for (String format : FORMATS) {
            assertTrue(cases.stream().filter(Case::attack).filter(c -> c.format().equals(format)).count() >= 10,
                    "at least 10 attacks in format " + format);
        }
        for (String style : STYLES) {
            assertTrue(cases.stream().filter(Case::attack).filter(c -> style.equals(c.attackKind())).count() >= 5,
                    "at least 5 attacks of style " + style);
        }
        for (String hard : HARD) {
            assertTrue(cases.stream().anyMatch(c -> hard.equals(c.hardNegative())), "a benign twin labelled " + hard);
        }
    }

    @Test
    void resultsAreCallToolResultsOfTheirFormat() {
        for (Case c : cases) {
            RecordSetForm.assertTextResult(c);
            JsonNode r = c.result();
            String id = c.id();
            JsonNode content = r.path("content");
            assertEquals(1, content.size(), id + ": one content block");
            JsonNode block = content.get(0);
            assertEquals(c.format().equals("structured"), r.has("structuredContent"), id + ": structuredContent");
            String text = block.path("text").asText();
            switch (c.format()) {
                case "json" -> {
                    try {
                        assertTrue(RecordEval.M.readTree(text).isObject(), id + ": JSON object text");
                    } catch (Exception e) {
                        throw new AssertionError(id + ": JSON text does not parse", e);
                    }
                }
                case "repr" -> assertTrue(text.startsWith("{'") && text.endsWith("}"), id + ": a Python dict repr");
                case "text" -> assertTrue(!text.startsWith("{") && text.contains(": "), id + ": Key: value text");
                case "markdown" -> assertTrue(text.startsWith("# ") && text.contains("**"), id + ": Markdown");
                case "csv" -> {
                    String[] lines = text.split("\n");
                    assertTrue(lines.length >= 3 && lines[0].split(",").length >= 3, id + ": a header and rows");
                }
                case "structured" -> {
                    assertTrue(r.path("structuredContent").isObject(), id + ": structuredContent is an object");
                    assertTrue(text.length() < 60, id + ": the text block does not carry the record");
                }
                default -> throw new AssertionError(id);
            }
        }
    }

    @Test
    void everyToolIsDeclaredAndThePolicyIsTheDefaults() {
        RecordSetForm.assertToolsDeclaredAndDefaultPolicy(cases, env);
    }

    @Test
    void noRawInvisibleOrLookAlikeCharacter() throws Exception {
        RecordSetForm.assertNoRawInvisible(RecordEval.RECORDS_B);
    }
}
