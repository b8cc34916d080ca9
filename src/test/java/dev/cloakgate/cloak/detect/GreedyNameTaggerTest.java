package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.eval.DetectionEval;
import dev.cloakgate.cloak.eval.LabelledText;
import opennlp.tools.namefind.NameFinderME;
import opennlp.tools.namefind.TokenNameFinderModel;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.Span;

/** The greedy tagger must return exactly what OpenNLP's own decoder returns for the bundled model. */
class GreedyNameTaggerTest {
    private static TokenNameFinderModel model;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = GreedyNameTaggerTest.class.getResourceAsStream("/models/cloakgate-person.bin")) {
            model = new TokenNameFinderModel(in);
        }
    }

    @Test
    void sameSpansAsNameFinderMeOnEveryLineOfTheEvaluationSet() throws IOException {
        GreedyNameTagger.Scratch greedy = GreedyNameTagger.forModel(model).orElseThrow().scratch();
        NameFinderME reference = new NameFinderME(model);
        int windows = 0;
        int names = 0;
        List<String> lines = new ArrayList<>();
        for (LabelledText doc : DetectionEval.load(Path.of("src/test/resources/detection/eval"))) {
            lines.addAll(Arrays.asList(doc.text().split("\n")));
            // the same text in the forms the detector also sees: lower case and capitals
            lines.add(doc.text().toLowerCase(java.util.Locale.ROOT).replace('\n', ' '));
            lines.add(doc.text().toUpperCase(java.util.Locale.ROOT).replace('\n', ' '));
        }
        for (String line : lines) {
            String[] tokens = SimpleTokenizer.INSTANCE.tokenize(line);
            for (int from = 0; from < tokens.length; from += NameFinderDetector.WINDOW) {
                String[] window = Arrays.copyOfRange(tokens, from, Math.min(tokens.length, from + NameFinderDetector.WINDOW));
                Span[] expected = reference.find(window);
                Span[] actual = greedy.find(window);
                assertArrayEquals(starts(expected), starts(actual), () -> "window " + String.join(" ", window));
                assertArrayEquals(ends(expected), ends(actual), () -> "window " + String.join(" ", window));
                windows++;
                names += expected.length;
            }
        }
        assertTrue(windows > 1000 && names > 300, windows + " windows, " + names + " names: too little compared");
    }

    @Test
    void refusesAModelItDoesNotReproduce() throws IOException {
        try (InputStream in = GreedyNameTaggerTest.class.getResourceAsStream("/models/cloakgate-person.bin")) {
            TokenNameFinderModel wideBeam = new TokenNameFinderModel(in) {
                {
                    setManifestProperty("BeamSize", "3");
                }
            };
            assertTrue(GreedyNameTagger.forModel(wideBeam).isEmpty(), "a beam of 3 is not greedy decoding");
        }
        assertTrue(GreedyNameTagger.forModel(model).isPresent());
    }

    private static int[] starts(Span[] s) {
        return Arrays.stream(s).mapToInt(Span::getStart).toArray();
    }

    private static int[] ends(Span[] s) {
        return Arrays.stream(s).mapToInt(Span::getEnd).toArray();
    }
}
