package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.detect.NameFinderDetector;
import dev.cloakgate.cloak.eval.LabelledText;

/**
 * The spellings a name's message and its session get ({@link NameSpellings}, made once and shared) and how
 * {@link NameForms} keeps them (a bucket per first word, longest first, a form once, at most
 * {@value NameForms#PER_WORD}) are what propagation built before they were shared: checked against that earlier
 * code, kept here as the reference, on every PERSON value of the evaluation sets, on names written in odd ways, and
 * on names enough to fill first words' buckets.
 */
class NameSpellingsTest {

    @Test
    void messageAndSessionFormsAreTheEarlierOnesInTheSameOrder() throws IOException {
        for (List<String> names : List.of(evaluationNames(), oddNames(), crowdedNames())) {
            NameForms message = new NameForms();
            NameForms session = new NameForms();
            Reference messageRef = new Reference();
            Reference sessionRef = new Reference();
            for (String name : names) {
                NameSpellings n = new NameSpellings(name);
                n.addForMessage(message, Propagation.MESSAGE_LOGIN);
                n.addForSession(session, Propagation.SESSION_LOGIN);
                Reference.messageForms(name, messageRef);
                Reference.sessionForms(name, sessionRef);
            }
            assertEquals(messageRef.contents(), message.contents());
            assertEquals(sessionRef.contents(), session.contents());
            assertTrue(message.contents().size() > 10);
        }
    }

    @Test
    void aSessionBuiltAloneIsTheSameAsOneSharingTheMessagesSpellings() {
        NameForms alone = new NameForms();
        NameForms shared = new NameForms();
        for (String name : crowdedNames()) {
            new NameSpellings(name).addForSession(alone, Propagation.SESSION_LOGIN);
            NameSpellings n = new NameSpellings(name);
            n.addForMessage(new NameForms(), Propagation.MESSAGE_LOGIN);
            n.addForSession(shared, Propagation.SESSION_LOGIN);
        }
        assertEquals(alone.contents(), shared.contents());
    }

    @Test
    void aFirstWordKeepsItsFirstFormsUpToTheCap() {
        NameForms forms = new NameForms();
        for (String name : crowdedNames()) {
            new NameSpellings(name).addForMessage(forms, Propagation.MESSAGE_LOGIN);
        }
        List<String> marie = forms.contents().get(NameForms.firstWordHashOf("marie"));
        assertEquals(NameForms.PER_WORD, marie.size());
        assertTrue(marie.contains("EXACT:Marie Dubois"), marie.toString());
    }

    private static List<String> evaluationNames() throws IOException {
        Set<String> names = new LinkedHashSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/test/resources/detection"))) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                LabelledText t = LabelledText.parse(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8));
                for (LabelledText.Gold g : t.gold()) {
                    if (g.category().equals("PERSON")) {
                        names.add(t.text().substring(g.start(), g.end()));
                    }
                }
            }
        }
        assertTrue(names.size() > 100, "evaluation names: " + names.size());
        return new ArrayList<>(names);
    }

    private static List<String> oddNames() {
        return List.of("Dubois, Marie", "Jean-Pierre O'Brien", "El\u00ednborg Gu\u00f0mundsd\u00f3ttir",
                Normalizer.normalize("El\u00ednborg Gu\u00f0mundsd\u00f3ttir", Normalizer.Form.NFD), "Ma\u00adrie Du\u200bbois",
                "ANNA KOWALSKA", "anna", "Siiri", ", Leading Comma", "  Marie   Dubois ", "\u0130lker \u00c7elik",
                "Stra\u00dfe Gro\u00df", "\u5f20\u4f1f", "O", "Al Li", "de la Cruz", "Marie\tDubois", "Dubois,Marie");
    }

    /** The cloak benchmark's people: sixteen family names per given name, more forms than a first word keeps. */
    private static List<String> crowdedNames() {
        String[] first = { "Marie", "James", "Ana", "Wei", "Fatima", "Lukas", "Aarav", "Chioma", "Sofia", "Mateus",
            "Yuki", "Olga", "Kwame", "Ingrid", "Omar", "Priya" };
        String[] last = { "Dubois", "Okafor", "Lima", "Zhang", "Haddad", "Schneider", "Sharma", "Eze", "Rossi",
            "Costa", "Tanaka", "Ivanova", "Mensah", "Larsen", "Farouk", "Nair" };
        List<String> names = new ArrayList<>();
        for (String f : first) {
            for (String l : last) {
                names.add(f + " " + l);
            }
            names.add(f);
        }
        return names;
    }

    /** Propagation's forms as they were built before {@link NameSpellings}, into buckets as NameForms kept them. */
    private static final class Reference {
        private final Set<String> known = new HashSet<>();
        private final Set<String> knownLogins = new HashSet<>();
        private final Map<Integer, List<String[]>> buckets = new HashMap<>();

        static void messageForms(String name, Reference into) {
            String[] words = NameFinderDetector.nameWords(name.strip());
            spell(name, into);
            for (String w : words) {
                if (part(w)) {
                    spell(w, into);
                }
            }
            if (words.length >= 2) {
                logins(name, words, 3, into);
            }
        }

        static void sessionForms(String name, Reference into) {
            String[] words = NameFinderDetector.nameWords(name.strip());
            if (words.length < 2) {
                return;
            }
            spell(name, into);
            String family = name.indexOf(',') > 0 ? words[0] : words[words.length - 1];
            if (part(family)) {
                spell(family, into);
            }
            logins(name, words, 5, into);
        }

        private static boolean part(String w) {
            return w.length() >= 3 && Character.isLetter(w.charAt(0)) && !Character.isLowerCase(w.charAt(0))
                    && !NameFinderDetector.commonWord(w);
        }

        private static void spell(String text, Reference into) {
            into.add(text, NameForms.Kind.EXACT);
            String caps = text.toUpperCase(Locale.ROOT);
            if (!caps.equals(text)) {
                into.add(caps, NameForms.Kind.EXACT);
            }
        }

        private static void logins(String name, String[] words, int shortest, Reference into) {
            boolean reversed = name.indexOf(',') > 0;
            List<String> logins = new ArrayList<>();
            NameFinderDetector.logins(reversed ? words[1] : words[0], reversed ? words[0] : words[words.length - 1],
                    logins);
            for (String login : logins) {
                if (login.length() >= shortest) {
                    into.add(login, NameForms.Kind.LOGIN);
                }
            }
        }

        void add(String text, NameForms.Kind kind) {
            StringBuilder visible = new StringBuilder();
            boolean ascii = true;
            for (char c : text.toCharArray()) {
                ascii &= c < 0x80;
                if (Character.getType(c) != Character.FORMAT) {
                    visible.append(c);
                }
            }
            String v = visible.toString();
            String t = kind == NameForms.Kind.LOGIN ? v.toLowerCase(Locale.ROOT) : v;
            put(t, kind);
            if (!ascii) {
                put(Normalizer.normalize(t, Normalizer.Form.NFC), kind);
                put(Normalizer.normalize(t, Normalizer.Form.NFD), kind);
            }
        }

        private void put(String t, NameForms.Kind kind) {
            if (t.isEmpty() || !Character.isLetter(t.codePointAt(0))
                    || !(kind == NameForms.Kind.LOGIN ? knownLogins : known).add(t)) {
                return;
            }
            List<String[]> b = buckets.computeIfAbsent(NameForms.firstWordHashOf(t), h -> new ArrayList<>());
            if (b.size() >= NameForms.PER_WORD) {
                return;
            }
            int at = 0;
            while (at < b.size() && b.get(at)[0].length() >= t.length()) {
                at++;
            }
            b.add(at, new String[] { t, kind.name() });
        }

        SortedMap<Integer, List<String>> contents() {
            SortedMap<Integer, List<String>> out = new TreeMap<>();
            buckets.forEach((h, b) -> out.put(h, b.stream().map(f -> f[1] + ":" + f[0]).toList()));
            return out;
        }
    }
}
