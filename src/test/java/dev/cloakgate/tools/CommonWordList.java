package dev.cloakgate.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.GZIPOutputStream;

import opennlp.tools.namefind.TokenNameFinderModel;

/**
 * Writes {@code src/main/resources/words/common-words.txt.gz}, the common words {@code NameVeto} reads: the
 * lower-case entries of the Debian word lists {@code wamerican} (en, SCOWL's permissive licence, 3 to 12 letters)
 * and {@code wspanish} (es, public domain, 3 to 8 letters), less every given name and surname the bundled PERSON
 * model's dictionary knows (so "rose", "mark" or "hunter" are never vetoed as common words). Sorted, one per line,
 * gzip with a fixed header, so the same inputs give the same bytes. Licences: {@code words/NOTICE.txt}.
 *
 * <pre>
 * apt-get install wamerican wspanish
 * java -cp target/test-classes:target/classes:$(deps) dev.cloakgate.tools.CommonWordList /usr/share/dict \
 *     src/main/resources/models/cloakgate-person.bin src/main/resources/words/common-words.txt.gz
 * </pre>
 */
public final class CommonWordList {
    /**
     * The lists and the longest word taken from each: English whole, Spanish's short words (food, menus, UI). Only
     * lists whose words are public domain: wfrench (GPL-2+) and witalian (GPL-3+) are not bundled.
     */
    private static final String[] LISTS = { "american-english", "spanish" };
    private static final int[] LONGEST = { 12, 8 };

    private CommonWordList() {
    }

    public static void main(String[] args) throws IOException {
        Path dicts = Path.of(args[0]);
        Set<String> names = new java.util.HashSet<>();
        try (InputStream in = Files.newInputStream(Path.of(args[1]))) {
            Object dict = new TokenNameFinderModel(in).getArtifact("person-names.dictionary");
            for (opennlp.tools.util.StringList e : (opennlp.tools.dictionary.Dictionary) dict) {
                for (int i = 0; i < e.size(); i++) {
                    names.add(e.getToken(i).toLowerCase(Locale.ROOT));
                }
            }
        }
        Set<String> words = new TreeSet<>();
        for (int l = 0; l < LISTS.length; l++) {
            for (String w : Files.readAllLines(dicts.resolve(LISTS[l]), StandardCharsets.UTF_8)) {
                if (w.length() >= 3 && w.length() <= LONGEST[l] && lowerLetters(w) && !names.contains(w)) {
                    words.add(w);
                }
            }
        }
        byte[] text = (String.join("\n", words) + "\n").getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(Path.of(args[2])))) {
            out.write(text); // GZIPOutputStream writes no time stamp: the bytes depend on the words only
        }
        System.out.println(words.size() + " words, " + names.size() + " names left out");
    }

    private static boolean lowerLetters(String w) {
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (!Character.isLetter(c) || !Character.isLowerCase(c)) {
                return false;
            }
        }
        return true;
    }
}
