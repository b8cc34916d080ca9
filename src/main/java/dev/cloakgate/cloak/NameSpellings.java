package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.List;

import dev.cloakgate.cloak.detect.NameFinderDetector;

/**
 * The spellings of one name that {@link Propagation} looks for, made once and added both to the forms of the
 * message that found the name and to the session's: what the session keeps of a name (the name, its family name,
 * its longer logins) is part of what its message propagates, so each spelling is made ready once, not once for
 * each ({@link NameForms.Spelling}). The order in which a {@link NameForms} receives them is the order they were
 * always added in: a first word's forms are capped, so it decides which are kept.
 */
final class NameSpellings {
    private final String name;
    private final String[] words;
    /** The name as written and in capitals (null when the same). */
    private NameForms.Spelling exact;
    private NameForms.Spelling caps;
    /** Per word: the word and its capitals when it is a part worth finding alone, made when first asked. */
    private NameForms.Spelling[] partExact;
    private NameForms.Spelling[] partCaps;
    private boolean[] partMade;
    /** The logins made from the name, in {@link NameFinderDetector#logins} order, and their spellings. */
    private List<String> logins;
    private NameForms.Spelling[] loginSpellings;

    NameSpellings(String name) {
        this.name = name;
        this.words = NameFinderDetector.nameWords(name.strip());
    }

    /** Within one message: the name, each of its parts, its logins of {@code shortestLogin} characters or more. */
    void addForMessage(NameForms into, int shortestLogin) {
        spellName(into);
        for (int i = 0; i < words.length; i++) {
            spellPart(i, into);
        }
        if (words.length >= 2) {
            addLogins(into, shortestLogin);
        }
    }

    /**
     * Across the session: a name of two words or more, its family name, its logins of {@code shortestLogin}
     * characters or more.
     */
    void addForSession(NameForms into, int shortestLogin) {
        if (words.length < 2) {
            return;
        }
        spellName(into);
        spellPart(name.indexOf(',') > 0 ? 0 : words.length - 1, into); // "Dubois, Marie"
        addLogins(into, shortestLogin);
    }

    private void spellName(NameForms into) {
        if (exact == null) {
            exact = NameForms.spelling(name, NameForms.Kind.EXACT);
            String upper = name.toUpperCase(java.util.Locale.ROOT);
            caps = upper.equals(name) ? null : NameForms.spelling(upper, NameForms.Kind.EXACT);
        }
        into.add(exact);
        if (caps != null) {
            into.add(caps);
        }
    }

    private void spellPart(int i, NameForms into) {
        if (partMade == null) {
            partMade = new boolean[words.length];
            partExact = new NameForms.Spelling[words.length];
            partCaps = new NameForms.Spelling[words.length];
        }
        if (!partMade[i]) {
            partMade[i] = true;
            String w = words[i];
            if (part(w)) {
                partExact[i] = NameForms.spelling(w, NameForms.Kind.EXACT);
                String upper = w.toUpperCase(java.util.Locale.ROOT);
                partCaps[i] = upper.equals(w) ? null : NameForms.spelling(upper, NameForms.Kind.EXACT);
            }
        }
        if (partExact[i] != null) {
            into.add(partExact[i]);
            if (partCaps[i] != null) {
                into.add(partCaps[i]);
            }
        }
    }

    private void addLogins(NameForms into, int shortest) {
        if (logins == null) {
            boolean reversed = name.indexOf(',') > 0;
            // a list, repeats allowed: the forms keep one of each
            logins = new ArrayList<>(13);
            NameFinderDetector.logins(reversed ? words[1] : words[0], reversed ? words[0] : words[words.length - 1],
                    logins);
            loginSpellings = new NameForms.Spelling[logins.size()];
        }
        for (int i = 0; i < logins.size(); i++) {
            if (logins.get(i).length() >= shortest) {
                if (loginSpellings[i] == null) {
                    loginSpellings[i] = NameForms.spelling(logins.get(i), NameForms.Kind.LOGIN);
                }
                into.add(loginSpellings[i]);
            }
        }
    }

    /** A word worth finding alone: three letters or more, capitalised (or of a script without case), not common. */
    static boolean part(String w) {
        return w.length() >= 3 && Character.isLetter(w.charAt(0)) && !Character.isLowerCase(w.charAt(0))
                && !NameFinderDetector.commonWord(w);
    }
}
