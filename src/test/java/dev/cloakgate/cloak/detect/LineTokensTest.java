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
 * The name finder reads a line's tokens off the text itself; they must be exactly OpenNLP's SimpleTokenizer's
 * for the whole line with '_' read as a space (the windows the model sees, hence its findings, depend on
 * nothing else), however far the window has moved on, and combining marks join the letter before them.
 */
class LineTokensTest {

    private static void sameAsTokenizer(String line) {
        Span[] whole = SimpleTokenizer.INSTANCE.tokenizePos(line.replace('_', ' '));
        LineTokens read = new LineTokens(line, 0, line.length());
        int k = 0;
        for (; read.has(k); k++) {
            assertTrue(k < whole.length, "more tokens than the tokenizer gives");
            assertEquals(whole[k].getStart(), read.start(k), "start of token " + k);
            assertEquals(whole[k].getEnd(), read.end(k), "end of token " + k);
            assertEquals(line.substring(whole[k].getStart(), whole[k].getEnd()), read.word(k));
            read.dropBefore(k - 3);
        }
        assertEquals(whole.length, k, "as many tokens as the tokenizer gives");
    }

    @Test
    void theEvaluationSetOnOneLine() throws Exception {
        StringBuilder b = new StringBuilder();
        for (LabelledText t : DetectionEval.load(Path.of("src/test/resources/detection/eval"))) {
            b.append(t.text().replace('\n', ' ')).append(' ');
        }
        assertTrue(b.length() > 80_000, "a long line: " + b.length());
        sameAsTokenizer(b.toString().replaceAll("[\\u0300-\\u036F]", "")); // marks are joined on purpose, below
    }

    @Test
    void textWithoutWhitespace() {
        Random r = new Random(9);
        String[] pieces = { "abc", "Ωμέγα", "123", "4", "--", ":", "/", "é", "_", "\ud83d\ude00", "\u0663\u0664", "..", "x9" };
        StringBuilder b = new StringBuilder();
        while (b.length() < 40_000) {
            b.append(pieces[r.nextInt(pieces.length)]);
        }
        String line = b.toString();
        assertFalse(line.indexOf(' ') >= 0);
        sameAsTokenizer(line);
    }

    @Test
    void randomCharactersOfEveryClass() {
        Random r = new Random(14);
        char[] alphabet = " \t\u00a0\u2003_aZéßΩж中ー٣5٣..--''\"!?@#\u200b\u3000\ud83d\ude00\u00ad\u2028".toCharArray();
        for (int round = 0; round < 300; round++) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(200);
            for (int i = 0; i < n; i++) {
                b.append(r.nextInt(4) == 0 ? (char) r.nextInt(0x3000) : alphabet[r.nextInt(alphabet.length)]);
            }
            sameAsTokenizer(b.toString().replaceAll("[\\u0300-\\u036F\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F]", ""));
        }
    }

    @Test
    void combiningMarksJoinTheLetterBeforeThemAndTheWordIsReadComposed() {
        String nfd = "Elínborg Gu\u00f0mundsdo\u0301ttir, Jose\u0301 and 5\u0301x";
        LineTokens t = new LineTokens(nfd, 0, nfd.length());
        assertEquals(6, t.total());
        assertEquals("Elínborg", t.word(0));
        assertEquals("Guðmundsdóttir", t.word(1));
        assertEquals(nfd.indexOf("Gu"), t.start(1));
        assertEquals(nfd.indexOf(','), t.end(1), "the span is the text's, marks included");
        assertEquals(",", t.word(2));
        assertEquals("José", t.word(3));
        assertEquals("and", t.word(4));
        assertEquals("5\u0301x", t.word(5), "a mark after a digit joins it too (nothing composes)");
        assertEquals("x", nfd.substring(t.end(5) - 1, t.end(5)));
    }

    @Test
    void aLineThatStartsWithMarks() {
        String s = "\u0301\u0301\u0323ab c";
        LineTokens t = new LineTokens(s, 0, s.length());
        assertEquals(2, t.total());
        assertEquals(0, t.start(0));
        assertEquals(5, t.end(0), "the first run of marks is a token; later marks and letters join it");
        assertEquals("c", t.word(1));
    }
}
