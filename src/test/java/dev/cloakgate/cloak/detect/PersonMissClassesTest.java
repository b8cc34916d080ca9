package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.cloak.Finding;
import dev.cloakgate.tenant.DetectionSettings;

/**
 * Issue 14's PERSON miss classes, each through the gateway's default detection: a single given name after a cue,
 * names in a list after a label, a surname alone after a full mention (composed and decomposed accents), a name
 * inside a title or quotation, names with diacritics; and the same cues on benign text, which must stay clean.
 */
class PersonMissClassesTest {
    private static Detection detection;

    @BeforeAll
    static void build() throws Exception {
        detection = new DetectionFactory().build(DetectionSettings.defaults());
    }

    private static List<String> persons(String text) {
        List<String> out = new ArrayList<>();
        for (Finding f : detection.find(text)) {
            if (f.category() == Category.PERSON) {
                out.add(text.substring(f.start(), f.end()));
            }
        }
        return out;
    }

    /** Every name is covered by some PERSON finding. */
    private static void covers(String text, String... names) {
        List<Finding> found = detection.find(text);
        for (String name : names) {
            int at = -1;
            while ((at = text.indexOf(name, at + 1)) >= 0) {
                boolean covered = true;
                for (int i = at; i < at + name.length() && covered; i++) {
                    int c = i;
                    covered = Character.isWhitespace(text.charAt(i)) || found.stream()
                            .anyMatch(f -> f.category() == Category.PERSON && f.start() <= c && c < f.end());
                }
                assertTrue(covered, "'" + name + "' at " + at + " is cloaked in: " + text + " -> " + persons(text));
            }
        }
    }

    @Test
    void aSingleGivenNameAfterACue() {
        covers("My name is Siiri and I need help with my order.", "Siiri");
        covers("hi, my name is Tuuli, I ordered two chairs", "Tuuli");
        covers("Hi, I'm Aroha from the billing team.", "Aroha");
        covers("Dear Chidinma,\nthe contract is attached.\nKind regards,\nTeodora", "Chidinma", "Teodora");
        covers("Thanks for the quick reply.\n\nBest regards,\nBrynjólfur Sigurðsson\nHead of Sales", "Brynjólfur Sigurðsson");
    }

    @Test
    void namesInAListAfterALabel() {
        covers("The founders: Kónya, Hodge and Baptiste met in 2019.", "Kónya", "Hodge", "Baptiste");
        covers("Attendees: Aroha Ngata, Mehmet Yılmaz, Nguyễn Thị Hoa, and Chukwuemeka Obi", "Aroha Ngata",
                "Mehmet Yılmaz", "Nguyễn Thị Hoa", "Chukwuemeka Obi");
        covers("Customer: Kaisa Virtanen\nAssignee: Bùi Tiến Dũng", "Kaisa Virtanen", "Bùi Tiến Dũng");
    }

    @Test
    void dialogueTurnsAtLineStart() {
        covers("Siiri: did you ship it?\nOlamide: yes, this morning.\nSiiri: great, thanks", "Siiri", "Olamide");
        covers("[09:12] Wairimu Njoroge: the export is done\n[09:14] Tomasz: thanks", "Wairimu Njoroge", "Tomasz");
    }

    @Test
    void aSurnameAloneAfterAFullMention() {
        String text = "Elínborg Guðmundsdóttir opened the meeting. Later Guðmundsdóttir said the budget was fine.";
        covers(text, "Elínborg Guðmundsdóttir", "Guðmundsdóttir");
        String nfd = Normalizer.normalize(text, Normalizer.Form.NFD);
        covers(nfd, Normalizer.normalize("Elínborg Guðmundsdóttir", Normalizer.Form.NFD),
                Normalizer.normalize("Guðmundsdóttir", Normalizer.Form.NFD));
        covers("Report by Dr. Oyelaran Adebisi. Adebisi later confirmed the figures.", "Oyelaran Adebisi", "Adebisi");
    }

    @Test
    void namesWithDiacritics() {
        covers("Please send the signed form to Elínborg Guðmundsdóttir before Friday.", "Elínborg Guðmundsdóttir");
        covers("From: Łukasz Żółć <lz@example.pl>", "Łukasz Żółć");
        covers("Meeting notes — Zsófia Kovács", "Zsófia Kovács");
    }

    @Test
    void aNameInsideATitleOrQuotation() {
        covers("Her favourite track is \"Letter to Ingrid Halvorsen\" by Miguel Ferreira.", "Ingrid Halvorsen",
                "Miguel Ferreira");
        covers("\"We will ship on time,\" said Kamala Ranganathan.", "Kamala Ranganathan");
    }

    @Test
    void cuesOnBenignTextFindNoOne() {
        for (String benign : List.of("Status: OK\nError: connection refused\nNote: retry later",
                "Dear Customer,\nyour order has shipped.\nKind regards,\nThe Support Team",
                "Hi team, the build is green.", "From: Billing Department <billing@example.com>",
                "I'm Sorry, the page you requested was not found.", "Location: Berlin\nComponent: Billing",
                "Written by the Platform Group on Monday, March 3.", "Priority: High\nComponent: Checkout API")) {
            assertEquals(List.of(), persons(benign), benign);
        }
    }
}
