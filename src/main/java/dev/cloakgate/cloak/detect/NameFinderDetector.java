package dev.cloakgate.cloak.detect;

import java.util.List;
import java.util.Set;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;
import opennlp.tools.namefind.NameFinderME;
import opennlp.tools.namefind.TokenNameFinderModel;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.Span;

/**
 * Named entities found by an OpenNLP name-finder model (PERSON by default: a gateway tokenizes what the model
 * must then reason over, and "France" identifies nobody). Everything a model finds is reported as the category
 * it was configured for. Text is fed one line at a time, in windows of at most {@value #WINDOW} tokens,
 * tokenized exactly as the model was trained ({@link SimpleTokenizer}). The model is shared; a finder (which is
 * not thread-safe) is kept per thread.
 */
public final class NameFinderDetector implements Detector {
    static final int WINDOW = 64;

    /** Tokens of context kept on each side of a candidate when the model is run on part of a line. */
    static final int CONTEXT = 3;
    /**
     * Capitalised words that start sentences and headers far more often than they name anyone: not reasons to
     * run the model (it still sees them as context).
     */
    private static final Set<String> COMMON = Set.of("The", "A", "An", "This", "That", "These", "Those", "It", "In",
            "On", "At", "For", "To", "From", "By", "With", "We", "I", "You", "He", "She", "They", "Our", "Your", "My",
            "If", "When", "Please", "Thanks", "Thank", "Hi", "Hello", "Dear", "Best", "Regards", "Yes", "No", "OK",
            "And", "But", "Or", "So", "As", "Of", "Is", "Are", "Was", "Be", "Not", "All", "New", "Note", "See", "Re",
            "Fwd", "Subject", "Date", "Sent", "Cc", "Error", "Warning", "Info", "Debug", "True", "False", "None",
            "Null", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
            "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
            "December", "Mr", "Mrs", "Ms", "Dr", "Prof", "Le", "La", "Les", "Der", "Die", "Das", "El", "Los");

    /** Passed as the known names to turn the pre-filter off: every token is a candidate. */
    public static final Set<String> EVERY_TOKEN = Set.of("\u0000every-token");

    private final Category category;
    private final ThreadLocal<Finder> finder;

    /** One thread's decoder: the greedy tagger for the bundled model, OpenNLP's own for any other. */
    private interface Finder {
        Span[] find(String[] tokens);

        void reset();
    }
    private final Set<String> knownNames;
    private final boolean prefilter;

    /**
     * @param knownNames lower-cased given names and surnames: a lower-case or ALL-CAPS token is only worth
     *        running the model on when it is one of them (capitalised tokens always are)
     */
    public NameFinderDetector(TokenNameFinderModel model, Category category, Set<String> knownNames) {
        this.category = category;
        this.knownNames = Set.copyOf(knownNames);
        this.prefilter = knownNames != EVERY_TOKEN;
        java.util.Optional<GreedyNameTagger> greedy = GreedyNameTagger.forModel(model);
        this.finder = ThreadLocal.withInitial(() -> greedy.map(NameFinderDetector::greedy).orElseGet(() -> openNlp(model)));
    }

    private static Finder greedy(GreedyNameTagger tagger) {
        GreedyNameTagger.Scratch scratch = tagger.scratch();
        return new Finder() {
            @Override
            public Span[] find(String[] tokens) {
                return scratch.find(tokens);
            }

            @Override
            public void reset() {
                // no adaptive features in the descriptor it reproduces
            }
        };
    }

    private static Finder openNlp(TokenNameFinderModel model) {
        NameFinderME me = new NameFinderME(model);
        return new Finder() {
            @Override
            public Span[] find(String[] tokens) {
                return me.find(tokens);
            }

            @Override
            public void reset() {
                me.clearAdaptiveData();
            }
        };
    }

    public NameFinderDetector(TokenNameFinderModel model, Category category) {
        this(model, category, EVERY_TOKEN);
    }

    @Override
    public Category category() {
        return category;
    }

    @Override
    public void detect(String s, List<Finding> out) {
        Finder f = finder.get();
        f.reset();
        List<Finding> found = new java.util.ArrayList<>();
        Tokens tokens = new Tokens();
        int n = s.length();
        int lineStart = 0;
        while (lineStart < n) {
            int nl = s.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? n : nl;
            if (hasLetter(s, lineStart, lineEnd)) {
                line(f, s, lineStart, lineEnd, found, tokens);
            }
            lineStart = lineEnd + 1;
        }
        if (!found.isEmpty()) {
            found = merged(s, found);
            propagate(s, found, tokens);
            out.addAll(found);
        }
    }

    /** "[Sarah] [Mitchell]" is one name: findings separated only by spaces are joined. */
    private List<Finding> merged(String s, List<Finding> found) {
        found.sort(java.util.Comparator.comparingInt(Finding::start));
        List<Finding> out = new java.util.ArrayList<>(found.size());
        Finding cur = found.get(0);
        for (int i = 1; i < found.size(); i++) {
            Finding next = found.get(i);
            String between = next.start() >= cur.end() ? s.substring(cur.end(), next.start()) : "x";
            if (between.length() <= 2 && (between.equals(" ") || between.equals("  ") || between.equals("\t"))) {
                cur = new Finding(category, cur.start(), next.end());
            } else {
                out.add(cur);
                cur = next;
            }
        }
        out.add(cur);
        return out;
    }

    /**
     * A name the model found once is a name everywhere in the same text: later mentions of it or of its parts
     * ("Dubois", "MARIE") are found too, in the same case, the capitalised or the all-capitals form. Parts of
     * fewer than three letters are left to the model.
     */
    private void propagate(String s, List<Finding> found, Tokens tokens) {
        Set<String> parts = new java.util.HashSet<>();
        Set<String> logins = new java.util.HashSet<>();
        Set<String> names = new java.util.HashSet<>();
        for (Finding f : found) {
            names.add(s.substring(f.start(), f.end()));
        }
        for (String name : names) {
            String[] words = name.split("[\\s,]+");
            for (String p : words) {
                if (p.length() >= 3 && Character.isLetter(p.charAt(0)) && !COMMON.contains(p)) {
                    parts.add(p);
                    parts.add(p.toUpperCase(java.util.Locale.ROOT));
                }
            }
            if (words.length >= 2) {
                logins(words[0], words[words.length - 1], logins);
            }
        }
        if (parts.isEmpty() && logins.isEmpty()) {
            return;
        }
        java.util.BitSet covered = new java.util.BitSet(s.length());
        for (Finding f : found) {
            covered.set(f.start(), f.end());
        }
        List<Finding> more = new java.util.ArrayList<>();
        for (int k = 0; k < tokens.size; k++) {
            int start = tokens.starts[k];
            int end = tokens.ends[k];
            if (end - start < 3 || covered.get(start)) {
                continue;
            }
            String w = s.substring(start, end);
            if (parts.contains(w)) {
                more.add(new Finding(category, start, end));
            }
        }
        if (!logins.isEmpty()) {
            logins(s, logins, covered, more);
        }
        found.addAll(more);
    }

    /**
     * A login made from a name found in the same text (mrossi, o.ivanova, rossi_marco) is that person: runs of
     * letters, digits, '.', '_' and '-' that start with a letter, compared lower-cased (a sentence's full stop
     * after one is not part of it).
     */
    private void logins(String s, Set<String> logins, java.util.BitSet covered, List<Finding> more) {
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (!Character.isLetter(s.charAt(i)) || (i > 0 && loginChar(s.charAt(i - 1)))) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < n && loginChar(s.charAt(j))) {
                j++;
            }
            int end = j;
            while (end > i && s.charAt(end - 1) == '.') {
                end--;
            }
            if (end - i >= 3 && end - i <= 41 && !covered.get(i)
                    && logins.contains(s.substring(i, end).toLowerCase(java.util.Locale.ROOT))) {
                more.add(new Finding(category, i, end));
            }
            i = j;
        }
    }

    private static boolean loginChar(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-';
    }

    /** Token offsets of the lines the model ran on, kept for propagation (no second tokenization). */
    private static final class Tokens {
        int[] starts = new int[256];
        int[] ends = new int[256];
        int size;

        void add(int start, int end) {
            if (size == starts.length) {
                starts = java.util.Arrays.copyOf(starts, size * 2);
                ends = java.util.Arrays.copyOf(ends, size * 2);
            }
            starts[size] = start;
            ends[size] = end;
            size++;
        }
    }

    /** The usual ways a login is made from a given name and a family name. */
    private static void logins(String given, String family, Set<String> out) {
        String g = given.toLowerCase(java.util.Locale.ROOT);
        String f = family.toLowerCase(java.util.Locale.ROOT);
        if (g.length() < 2 || f.length() < 2 || !Character.isLetter(g.charAt(0)) || !Character.isLetter(f.charAt(0))) {
            return;
        }
        char gi = g.charAt(0);
        for (String sep : new String[] { "", ".", "_", "-" }) {
            out.add(g + sep + f);
            out.add(f + sep + g);
            out.add(gi + sep + f);
        }
        out.add(f + gi);
    }

    /**
     * Runs the model only where a name could be: around candidate tokens (capitalised, of an uncased script,
     * or a known name in lower case or capitals), with {@value #CONTEXT} tokens of context on each side and at
     * most {@value #WINDOW} tokens at a time. The model decides; the candidates only spare it the rest of the
     * line, which in logs, code and listings is most of it.
     */
    private void line(Finder f, String s, int from, int to, List<Finding> out, Tokens tokens) {
        // file names and identifiers join names with underscores (Rossi_Marco.pdf): split them like spaces
        String line = s.substring(from, to).replace('_', ' ');
        Span[] tok = SimpleTokenizer.INSTANCE.tokenizePos(line);
        String[] words = new String[tok.length];
        for (int k = 0; k < tok.length; k++) {
            words[k] = line.substring(tok[k].getStart(), tok[k].getEnd());
            tokens.add(from + tok[k].getStart(), from + tok[k].getEnd());
        }
        int k = 0;
        while (k < words.length) {
            if (!candidate(words[k])) {
                k++;
                continue;
            }
            int start = Math.max(0, k - CONTEXT);
            int end = Math.min(words.length, k + CONTEXT + 1);
            // extend over further candidates within reach, up to the window size
            int next = k + 1;
            while (next < end && end - start < WINDOW) {
                if (candidate(words[next])) {
                    end = Math.min(words.length, Math.max(end, next + CONTEXT + 1));
                }
                next++;
            }
            end = Math.min(end, start + WINDOW);
            String[] window = java.util.Arrays.copyOfRange(words, start, end);
            for (Span span : f.find(window)) {
                int fs = from + tok[start + span.getStart()].getStart();
                int fe = from + tok[start + span.getEnd() - 1].getEnd();
                if (plausible(s, fs, fe)) {
                    out.add(new Finding(category, fs, fe));
                }
            }
            k = end;
        }
    }

    /**
     * What the model finds must still look like a name: it starts with a letter, and as a single token it is
     * neither a short lower-case word (the, npm) nor a camelCase identifier (TargetUserName) unless the
     * dictionary knows it. Recall matters more than precision here: a missed name leaks, an extra token does
     * not.
     */
    private boolean plausible(String s, int start, int end) {
        String v = s.substring(start, end);
        if (v.length() < 2 || !Character.isLetter(v.charAt(0))) {
            return false;
        }
        if (!prefilter || v.indexOf(' ') > 0 || knownNames.contains(v.toLowerCase(java.util.Locale.ROOT))) {
            return true;
        }
        boolean allLower = true;
        boolean camel = false;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            allLower &= !Character.isUpperCase(c);
            camel |= i > 0 && Character.isUpperCase(c) && Character.isLowerCase(v.charAt(i - 1));
        }
        return !(allLower && v.length() <= 5) && !camel;
    }

    private boolean candidate(String w) {
        if (!prefilter) {
            return true;
        }
        char c0 = w.charAt(0);
        if (!Character.isLetter(c0)) {
            return false;
        }
        if (Character.isUpperCase(c0)) {
            if (w.length() == 1 || COMMON.contains(w)) {
                return false;
            }
            boolean allCaps = true;
            for (int i = 1; i < w.length() && allCaps; i++) {
                allCaps = !Character.isLowerCase(w.charAt(i));
            }
            return !allCaps || knownNames.contains(w.toLowerCase(java.util.Locale.ROOT));
        }
        if (Character.isLowerCase(c0)) {
            return knownNames.contains(w);
        }
        return true; // scripts without case: Han, Arabic, Hebrew, Thai...
    }

    /** A value under a key such as "name" or "customer" that looks like a personal name. */
    @Override
    public boolean acceptsHinted(String value) {
        return category == Category.PERSON && looksLikeName(value);
    }

    static boolean looksLikeName(String value) {
        String v = value.strip();
        if (v.isEmpty() || v.length() > 80) {
            return false;
        }
        String[] words = v.split("[\\s,]+");
        if (words.length > 6) {
            return false;
        }
        boolean cased = false;
        for (String w : words) {
            if (!word(w)) {
                return false;
            }
            char c0 = w.charAt(0);
            cased |= Character.isUpperCase(c0) || !Character.isLowerCase(c0);
        }
        // one lower-case word is a login or a label ("admin"), not evidence of a name
        return words.length > 1 || cased;
    }

    private static boolean word(String w) {
        if (w.length() == 2 && Character.isLetter(w.charAt(0)) && w.charAt(1) == '.') {
            return true; // an initial
        }
        if (!Character.isLetter(w.charAt(0))) {
            return false;
        }
        for (int i = 1; i < w.length(); i++) {
            char c = w.charAt(i);
            if (!(Character.isLetter(c) || c == '-' || c == '\'' || c == '\u2019' || Character.getType(c) == Character.NON_SPACING_MARK)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasLetter(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.isLetter(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
