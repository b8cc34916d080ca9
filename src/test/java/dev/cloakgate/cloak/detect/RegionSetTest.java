package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** A region of a text is in the set exactly when its copy (lower-cased, when asked so) would be. */
class RegionSetTest {

    @Test
    void exactAndIgnoringCaseAsTheCopyWouldBe() {
        RegionSet set = new RegionSet(Set.of("marie", "dubois", "m.dubois", "ıstanbul", "i̇pek", "σοφία", "ὀδυσσεύς"));
        String s = "Hi MARIE, m.Dubois wrote to marie and Marie; İPEK and ΣΟΦΊΑ; Istanbul";
        assertTrue(set.contains(s, s.indexOf("marie"), s.indexOf("marie") + 5));
        assertFalse(set.contains(s, 3, 8), "MARIE is not marie exactly");
        assertTrue(set.containsIgnoreCase(s, 3, 8));
        assertTrue(set.containsIgnoreCase(s, s.indexOf("m.D"), s.indexOf("m.D") + 8));
        assertFalse(set.containsIgnoreCase(s, 3, 7), "a part of a word is not the word");
        assertFalse(set.containsIgnoreCase(s, 0, 0));
        int pek = s.indexOf("İPEK");
        assertEquals(set.containsIgnoreCase(s, pek, pek + 4), Set.of("i̇pek").contains("İPEK".toLowerCase(Locale.ROOT)),
                "dotted capital I lowers to two characters, as toLowerCase has it");
        int sofia = s.indexOf("ΣΟΦΊΑ");
        assertTrue(set.containsIgnoreCase(s, sofia, sofia + 5));
        int ist = s.indexOf("Istanbul");
        assertFalse(set.containsIgnoreCase(s, ist, ist + 8), "I lowers to i, not to dotless ı, in the root locale");
    }

    @Test
    void agreesWithAHashSetOnRandomWords() {
        Random r = new Random(3);
        String alphabet = "aAbBéÉıİσΣςßẞ.-_1";
        List<String> words = new java.util.ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            words.add(word(r, alphabet).toLowerCase(Locale.ROOT));
        }
        Set<String> lower = Set.copyOf(words);
        RegionSet set = new RegionSet(lower);
        for (int i = 0; i < 20000; i++) {
            String w = i % 3 == 0 ? words.get(r.nextInt(words.size())).toUpperCase(Locale.ROOT) : word(r, alphabet);
            String text = "<" + w + ">";
            assertEquals(lower.contains(w), set.contains(text, 1, 1 + w.length()), w);
            assertEquals(lower.contains(w.toLowerCase(Locale.ROOT)), set.containsIgnoreCase(text, 1, 1 + w.length()), w);
        }
    }

    /** A few words, so most regions start with a character none of them starts with (and are not hashed). */
    @Test
    void agreesWithAHashSetWhenFewFirstCharactersAreKnown() {
        Random r = new Random(14);
        String alphabet = "aAbBéÉıİσΣςßẞ.-_1\u00ff\u0178µΜ";
        Set<String> lower = Set.of("bé", "ßa", "σς", "ÿb", "µ1", "ıa", "i̇b");
        RegionSet set = new RegionSet(lower);
        for (int i = 0; i < 50000; i++) {
            String w = word(r, alphabet);
            String text = "<" + w + ">";
            assertEquals(lower.contains(w), set.contains(text, 1, 1 + w.length()), w);
            assertEquals(lower.contains(w.toLowerCase(Locale.ROOT)), set.containsIgnoreCase(text, 1, 1 + w.length()), w);
        }
        for (String w : List.of("BÉ", "SSA", "ΣΣ", "Ÿb", "ΜΑ", "İB", "IA")) {
            String text = "<" + w + ">";
            assertEquals(lower.contains(w.toLowerCase(Locale.ROOT)), set.containsIgnoreCase(text, 1, 1 + w.length()), w);
        }
    }

    private static String word(Random r, String alphabet) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return b.toString();
    }
}
