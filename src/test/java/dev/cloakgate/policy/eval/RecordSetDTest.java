package dev.cloakgate.policy.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.eval.RecordEval.Case;

/**
 * The fourth tool-record set ({@code policy/records-d}) keeps its form: twins both ways, ids unique, the counts its
 * README states, valid CallToolResults of their format (two text blocks only where an attack is split over them),
 * every tool declared, base64 and HTML comments only where an attack is labelled with that hidden form, no raw
 * invisible character. Form only: it runs no detector and pins no number (the set is not yet run).
 */
class RecordSetDTest {
    static final Path RECORDS_D = Path.of("src/test/resources/policy/records-d");
    static final Set<String> STYLES = Set.of("request", "to_assistant", "workflow_step", "reminder", "question",
            "friend_favour", "system_notice", "override", "exfiltration");
    static final Set<String> POSITIONS = Set.of("whole", "middle", "end", "split", "split_blocks");
    static final Set<String> QUOTING = Set.of("none", "quoted", "nested", "html_comment", "base64");
    static final Set<String> HARD = Set.of("plain", "courtesy", "person_request", "how_to", "security_advice",
            "quoted_attack", "refund_complaint", "own_errand");
    static final Set<String> FORMATS = Set.of("json", "json_compact", "repr", "text", "markdown", "structured");
    static final Set<String> RECORD_TYPES = Set.of("travel_booking", "pharmacy_order", "school_portal",
            "real_estate_listing", "insurance_claim", "job_application", "recipe", "podcast_episode",
            "package_tracking", "car_sharing", "forum_thread", "password_entry", "ci_build_log", "chat_dm", "invoice");
    static final Set<String> FIELDS_ATTACK = Set.of("id", "kind", "twin", "language", "record_type", "format",
            "attack", "position", "quoting", "upstream", "tool", "result");
    static final Set<String> FIELDS_BENIGN = Set.of("id", "kind", "twin", "language", "record_type", "format",
            "hard_negative", "upstream", "tool", "result");
    /** Attacks and benign twins per language, as the README's table states them. */
    static final Map<String, List<Integer>> COUNTS = Map.of("en", List.of(62, 40), "fr", List.of(22, 15), "es",
            List.of(22, 15), "de", List.of(22, 15), "zh", List.of(22, 15));
    static final Pattern B64 = Pattern.compile("[A-Za-z0-9+/]{40,}={0,2}");

    private static List<Case> cases;
    private static JsonNode env;
    /** Each attack's {@code position} and {@code quoting}, which {@link Case} does not carry. */
    private static final Map<String, String> position = new HashMap<>();
    private static final Map<String, String> quoting = new HashMap<>();

    @BeforeAll
    static void load() throws Exception {
        cases = RecordEval.load(RECORDS_D);
        env = RecordEval.env(RECORDS_D);
        for (String lang : RecordEval.LANGUAGES) {
            for (String line : Files.readAllLines(RECORDS_D.resolve(lang + ".jsonl"), StandardCharsets.UTF_8)) {
                JsonNode n = RecordEval.M.readTree(line);
                position.put(n.path("id").asText(), n.path("position").asText(null));
                quoting.put(n.path("id").asText(), n.path("quoting").asText(null));
            }
        }
    }

    @Test
    void idsAreUniqueAndWellFormed() {
        RecordSetForm.assertIdsWellFormed(cases, "d");
    }

    @Test
    void labelsComeFromTheAllowedSets() throws Exception {
        for (String lang : RecordEval.LANGUAGES) {
            for (String line : Files.readAllLines(RECORDS_D.resolve(lang + ".jsonl"), StandardCharsets.UTF_8)) {
                JsonNode n = RecordEval.M.readTree(line);
                Set<String> fields = new HashSet<>();
                n.fieldNames().forEachRemaining(fields::add);
                boolean attack = n.path("kind").asText().equals("attack");
                assertEquals(attack ? FIELDS_ATTACK : FIELDS_BENIGN, fields, n.path("id").asText());
            }
        }
        for (Case c : cases) {
            assertTrue(Set.of("attack", "benign").contains(c.kind()), c.id());
            assertTrue(FORMATS.contains(c.format()), c.id() + ": format " + c.format());
            assertTrue(RECORD_TYPES.contains(c.recordType()), c.id() + ": record type " + c.recordType());
            if (c.attack()) {
                assertTrue(STYLES.contains(c.attackKind()), c.id() + ": attack style " + c.attackKind());
                assertTrue(POSITIONS.contains(position.get(c.id())), c.id() + ": position");
                assertTrue(QUOTING.contains(quoting.get(c.id())), c.id() + ": quoting");
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
        assertTrue(attacks >= 150 && cases.size() - attacks >= 100, "at least 150 attacks and 100 benign twins");
        counts.forEach((l, n) -> assertTrue(n.get(0) >= (l.equals("en") ? 60 : 20), l + ": attacks " + n.get(0)));
        for (String type : RECORD_TYPES) {
            assertTrue(attacks(c -> c.recordType().equals(type)) >= 5, "at least 5 attacks in record type " + type);
        }
        for (String format : FORMATS) {
            assertTrue(attacks(c -> c.format().equals(format)) >= 15, "at least 15 attacks in format " + format);
        }
        for (String style : STYLES) {
            assertTrue(attacks(c -> style.equals(c.attackKind())) >= 10, "at least 10 attacks of style " + style);
            for (String q : List.of("quoted", "nested")) {
                assertTrue(attacks(c -> style.equals(c.attackKind()) && q.equals(quoting.get(c.id()))) >= 1,
                        "style " + style + " has a " + q + " form");
            }
        }
        for (String pos : POSITIONS) {
            assertTrue(attacks(c -> pos.equals(position.get(c.id()))) >= 8, "at least 8 attacks at position " + pos);
        }
        for (String q : List.of("html_comment", "base64")) {
            assertTrue(attacks(c -> q.equals(quoting.get(c.id()))) >= 2, "at least 2 attacks hidden as " + q);
        }
        for (String hard : HARD) {
            assertTrue(cases.stream().filter(c -> hard.equals(c.hardNegative())).count() >= 5,
                    "at least 5 benign twins labelled " + hard);
        }
    }

    private static long attacks(java.util.function.Predicate<Case> p) {
        return cases.stream().filter(Case::attack).filter(p).count();
    }

    @Test
    void resultsAreCallToolResultsOfTheirFormat() {
        Map<String, Case> byId = new HashMap<>();
        cases.forEach(c -> byId.put(c.id(), c));
        Set<String> twoBlockRecords = new HashSet<>();
        cases.stream().filter(c -> "split_blocks".equals(position.get(c.id()))).forEach(c -> twoBlockRecords.add(c.twin()));
        for (Case c : cases) {
            RecordSetForm.assertTextResult(c);
            JsonNode r = c.result();
            String id = c.id();
            JsonNode content = r.path("content");
            String record = c.attack() ? c.twin() : c.id();
            assertEquals(twoBlockRecords.contains(record) ? 2 : 1, content.size(),
                    id + ": two text blocks exactly where an attack is split over them");
            assertEquals(c.format().equals("structured"), r.has("structuredContent"), id + ": structuredContent");
            for (JsonNode block : content) {
                assertEquals("text", block.path("type").asText(), id + ": text blocks");
                String text = block.path("text").asText();
                switch (c.format()) {
                    case "json", "json_compact" -> {
                        try {
                            assertTrue(RecordEval.M.readTree(text).isObject(), id + ": JSON object text");
                        } catch (Exception e) {
                            throw new AssertionError(id + ": JSON text does not parse", e);
                        }
                        assertEquals(c.format().equals("json_compact"), !text.contains("\n"),
                                id + ": compact JSON is one line, indented JSON is not");
                    }
                    case "repr" -> assertTrue(text.startsWith("{'") && text.endsWith("}"), id + ": a Python dict repr");
                    case "text" -> assertTrue(!text.startsWith("{") && text.contains(": "), id + ": Key: value text");
                    case "markdown" -> assertTrue(text.startsWith("# ") && text.contains("**"), id + ": Markdown");
                    case "structured" -> {
                        assertTrue(r.path("structuredContent").isObject(), id + ": structuredContent is an object");
                        assertTrue(text.length() < 60, id + ": the text block does not carry the record");
                    }
                    default -> throw new AssertionError(id);
                }
            }
        }
    }

    @Test
    void hiddenFormsOnlyWhereLabelled() {
        for (Case c : cases) {
            String all = c.result().toString();
            boolean b64 = c.attack() && "base64".equals(quoting.get(c.id()));
            Matcher m = B64.matcher(all);
            assertEquals(b64, m.find(), c.id() + ": base64 exactly in the attacks labelled base64");
            if (b64) {
                String decoded = new String(Base64.getDecoder().decode(m.group()), StandardCharsets.UTF_8);
                assertTrue(decoded.chars().allMatch(ch -> ch >= 32 && ch < 127) && decoded.contains(" "),
                        c.id() + ": the base64 holds a sentence");
            }
            boolean comment = c.attack() && "html_comment".equals(quoting.get(c.id()));
            assertEquals(comment, all.contains("<!--"), c.id() + ": an HTML comment exactly where labelled");
        }
    }

    @Test
    void everyToolIsDeclaredAndThePolicyIsTheDefaults() {
        RecordSetForm.assertToolsDeclaredAndDefaultPolicy(cases, env);
    }

    @Test
    void noRawInvisibleOrLookAlikeCharacter() throws Exception {
        RecordSetForm.assertNoRawInvisible(RECORDS_D);
    }
}
