package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.eval.LabelledText;

/** {@link NameFinderDetector#nameWords} reads a name as {@code split("[\\s,]+")} did. */
class NameWordsTest {
    private static final Pattern SPLIT = Pattern.compile("[\\s,]+");

    @Test
    void asTheRegularExpressionSplits() throws IOException {
        List<String> texts = new ArrayList<>(List.of("", " ", ",", " ,\t", "Marie", "Marie Dubois", " Marie", "Marie ",
                "Dubois, Marie", "Dubois,Marie", ",Leading", "a,,b", "a , b ,", "Marie\u00a0Dubois", "Marie\u2003Dubois",
                "Marie\u000BDubois\fX\rY\nZ", "\u5f20 \u4f1f", "Jean-Pierre O'Brien"));
        try (Stream<Path> files = Files.walk(Path.of("src/test/resources/detection"))) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                LabelledText t = LabelledText.parse(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8));
                texts.add(t.text());
                texts.addAll(List.of(t.text().split("\n")));
                for (LabelledText.Gold g : t.gold()) {
                    texts.add(t.text().substring(g.start(), g.end()));
                }
            }
        }
        assertTrue(texts.size() > 1000);
        for (String s : texts) {
            assertArrayEquals(SPLIT.split(s), NameFinderDetector.nameWords(s), s);
        }
    }
}
