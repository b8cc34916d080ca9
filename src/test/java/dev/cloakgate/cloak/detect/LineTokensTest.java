package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.eval.DetectionEval;
import dev.cloakgate.cloak.eval.LabelledText;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.Span;

/**
 * The name finder tokenizes a long line a chunk at a time; its tokens must be exactly those of tokenizing the
 * whole line at once (the windows the model sees, hence its findings, depend on nothing else).
 */
class LineTokensTest {

    private static void sameAsWhole(String line) {
        Span[] whole = SimpleTokenizer.INSTANCE.tokenizePos(line.replace('_', ' '));
        NameFinderDetector.LineTokens chunked = new NameFinderDetector.LineTokens(line, 0, line.length());
        int k = 0;
        for (; chunked.has(k); k++) {
            assertTrue(k < whole.length, "more tokens than the whole line has");
            assertEquals(whole[k].getStart(), chunked.start(k), "start of token " + k);
            assertEquals(whole[k].getEnd(), chunked.end(k), "end of token " + k);
            assertEquals(line.substring(whole[k].getStart(), whole[k].getEnd()).replace('_', ' '), chunked.word(k));
            chunked.dropBefore(k - 3);
        }
        assertEquals(whole.length, k, "as many tokens as the whole line");
    }

    @Test
    void theEvaluationSetOnOneLine() throws Exception {
        StringBuilder b = new StringBuilder();
        for (LabelledText t : DetectionEval.load(Path.of("src/test/resources/detection/eval"))) {
            b.append(t.text().replace('\n', ' ')).append(' ');
        }
        assertTrue(b.length() > 20 * NameFinderDetector.LineTokens.CHUNK, "many chunks: " + b.length());
        sameAsWhole(b.toString());
    }

    @Test
    void textWithoutWhitespaceIsCutWhereTheTokenizerSplitsAnyway() {
        Random r = new Random(9);
        String[] pieces = { "abc", "Ωμέγα", "123", "4", "--", ":", "/", "é", "_", "\ud83d\ude00", "\u0663\u0664", "..", "x9" };
        StringBuilder b = new StringBuilder();
        while (b.length() < 10 * NameFinderDetector.LineTokens.CHUNK) {
            b.append(pieces[r.nextInt(pieces.length)]);
        }
        String line = b.toString();
        assertFalse(line.indexOf(' ') >= 0);
        sameAsWhole(line);
    }
}
