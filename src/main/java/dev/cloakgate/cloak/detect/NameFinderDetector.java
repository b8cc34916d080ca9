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
 * tokenized exactly as the model was trained ({@link SimpleTokenizer}'s rule, read off the text by
 * {@link LineTokens} a token at a time) and only the tokens the current window needs are held, so a multi-megabyte
 * line (a JSON result on one line) costs bounded memory and linear time. The model is shared; a finder (which is
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

    /** Whether a capitalised word starts sentences and headers far more often than it names anyone. */
    public static boolean commonWord(String w) {
        return COMMON.contains(w);
    }

    /**
     * {@code name.split("[\\s,]+")}, read by hand (this runs for every name of every text, three times): the words
     * between runs of ASCII whitespace and commas, an empty first word when the name starts with one, none at the end.
     */
    public static String[] nameWords(String name) {
        java.util.List<String> words = null;
        int n = name.length();
        int from = 0;
        int i = 0;
        while (i < n) {
            if (!nameWordSeparator(name.charAt(i))) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < n && nameWordSeparator(name.charAt(j))) {
                j++;
            }
            if (words == null) {
                words = new java.util.ArrayList<>(4);
            }
            words.add(name.substring(from, i));
            from = j;
            i = j;
        }
        if (words == null) {
            return new String[] { name };
        }
        words.add(name.substring(from));
        int size = words.size();
        while (size > 0 && words.get(size - 1).isEmpty()) {
            size--;
        }
        return words.subList(0, size).toArray(new String[0]);
    }

    /** {@code [\\s,]}: a regular expression's {@code \\s} is ASCII whitespace only. */
    private static boolean nameWordSeparator(char c) {
        return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /** Passed as the known names to turn the pre-filter off: every token is a candidate. */
    public static final Set<String> EVERY_TOKEN = Set.of("\u0000every-token");

    private final Category category;
    private final ThreadLocal<Finder> finder;

    /** One thread's decoder: the greedy tagger for the bundled model, OpenNLP's own for any other. */
    private interface Finder {
        /** The names among tokens {@code [start, end)} of the line. */
        Span[] find(LineTokens lt, int start, int end);

        void reset();
    }
    private final Set<String> knownNames;
    /** The same names and {@link #COMMON}, asked about a token without copying it out of the text. */
    private final RegionSet knownRegions;
    private static final RegionSet COMMON_REGIONS = new RegionSet(COMMON);
    private final boolean prefilter;
    /** Names the text introduces (labels, greetings, speakers): PERSON only. */
    private final NameCues cues;

    /**
     * @param knownNames lower-cased given names and surnames: a lower-case or ALL-CAPS token is only worth
     *        running the model on when it is one of them (capitalised tokens always are)
     */
    public NameFinderDetector(TokenNameFinderModel model, Category category, Set<String> knownNames) {
        this.category = category;
        this.knownNames = Set.copyOf(knownNames);
        this.knownRegions = new RegionSet(this.knownNames);
        this.prefilter = knownNames != EVERY_TOKEN;
        this.cues = category == Category.PERSON ? new NameCues(this.knownNames) : null;
        java.util.Optional<GreedyNameTagger> greedy = GreedyNameTagger.forModel(model);
        this.finder = ThreadLocal.withInitial(() -> greedy.map(NameFinderDetector::greedy).orElseGet(() -> openNlp(model)));
    }

    private static Finder greedy(GreedyNameTagger tagger) {
        GreedyNameTagger.Scratch scratch = tagger.scratch();
        return new Finder() {
            @Override
            public Span[] find(LineTokens lt, int start, int end) {
                return scratch.find(lt, start, end);
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
            public Span[] find(LineTokens lt, int start, int end) {
                String[] window = new String[end - start];
                for (int w = start; w < end; w++) {
                    window[w - start] = lt.word(w);
                }
                return me.find(window);
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
        NameCues.Pass cued = cues == null ? null : cues.new Pass(s);
        LineTokens lines = new LineTokens(s, 0, 0);
        eachLine(s, (from, to) -> {
            lines.reset(from, to);
            line(f, s, lines, found);
            if (cued != null) {
                cueSegments(cued, s, from, to);
            }
        });
        List<String> logins = new java.util.ArrayList<>(); // repeats allowed: RegionSet keeps one of each
        if (cued != null) {
            for (int[] c : cued.found()) {
                found.add(new Finding(category, c[0], c[1]));
            }
            for (int[] c : cued.logins()) {
                found.add(new Finding(category, c[0], c[1]));
                logins.add(s.substring(c[0], c[1]).toLowerCase(java.util.Locale.ROOT));
            }
        }
        if (!found.isEmpty()) {
            List<Finding> names = merged(s, found);
            propagate(s, names, logins);
            out.addAll(names);
        }
    }

    /** Characters of a line read for cues at a time, so a one-line multi-megabyte result costs bounded memory. */
    static final int CUE_SEGMENT = 8192;

    /** A line, in segments of at most {@value #CUE_SEGMENT} characters cut at whitespace. */
    private static void cueSegments(NameCues.Pass cued, String s, int from, int to) {
        int a = from;
        while (a < to) {
            int b = Math.min(to, a + CUE_SEGMENT);
            if (b < to) {
                int cut = b;
                while (cut > a + CUE_SEGMENT / 2 && !Character.isWhitespace(s.charAt(cut))) {
                    cut--;
                }
                b = cut > a + CUE_SEGMENT / 2 ? cut : b;
            }
            cued.line(a, b);
            LoginContexts.find(s, a, b, cued.logins());
            a = b;
        }
    }

    /** Each line of {@code s} that has a letter: the lines the model runs on. */
    private static void eachLine(String s, LineTokens.Visitor line) {
        int n = s.length();
        int lineStart = 0;
        while (lineStart < n) {
            int nl = s.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? n : nl;
            if (hasLetter(s, lineStart, lineEnd)) {
                line.token(lineStart, lineEnd);
            }
            lineStart = lineEnd + 1;
        }
    }

    /** "[Sarah] [Mitchell]" is one name: findings separated only by spaces are joined. */
    private List<Finding> merged(String s, List<Finding> found) {
        found.sort(java.util.Comparator.comparingInt(Finding::start));
        List<Finding> out = new java.util.ArrayList<>(found.size());
        Finding cur = found.get(0);
        for (int i = 1; i < found.size(); i++) {
            Finding next = found.get(i);
            if (next.start() < cur.end()) {
                // a cue and the model found the same name, or overlapping parts of it: one finding
                cur = new Finding(category, cur.start(), Math.max(cur.end(), next.end()));
                continue;
            }
            // names far apart are not copied out to learn that they are
            String between = next.start() >= cur.end() && next.start() - cur.end() <= 2
                    ? s.substring(cur.end(), next.start()) : "x";
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
    private void propagate(String s, List<Finding> found, List<String> logins) {
        Set<String> parts = new java.util.HashSet<>();
        Set<String> names = new java.util.HashSet<>();
        for (Finding f : found) {
            names.add(s.substring(f.start(), f.end()));
        }
        for (String name : names) {
            String[] words = nameWords(name);
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
        List<Finding> more = new java.util.ArrayList<>();
        if (!parts.isEmpty()) {
            parts(s, new RegionSet(parts), new Covered(found), more);
        }
        if (!logins.isEmpty()) {
            logins(s, new RegionSet(logins), new Covered(found), more);
        }
        found.addAll(more);
    }

    /**
     * Later mentions of a name's parts: the text's words, as the model's tokens have them (a run of letters, with
     * the combining marks and letters {@link LineTokens} joins to it), read straight off the text in one pass: a
     * part is letters, so it can only be such a word.
     */
    private void parts(String s, RegionSet parts, Covered covered, List<Finding> more) {
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (!Chars.letter(c) || (i > 0 && wordChar(s.charAt(i - 1)))) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < n && wordChar(s.charAt(j))) {
                j++;
            }
            if (j - i >= 3 && parts.contains(s, i, j) && !covered.at(i)) {
                more.add(new Finding(category, i, j));
            }
            i = j;
        }
    }

    private static boolean wordChar(char c) {
        return Chars.alphabetic(c) || LineTokens.diacritic(c);
    }

    /** Whether positions, asked in increasing order, fall inside findings sorted by start (overlaps allowed). */
    private static final class Covered {
        private final List<Finding> found;
        private final int size;
        private int next;
        private int maxEnd = -1;

        Covered(List<Finding> found) {
            this.found = found;
            this.size = found.size();
        }

        boolean at(int position) {
            while (next < size && found.get(next).start() <= position) {
                maxEnd = Math.max(maxEnd, found.get(next).end());
                next++;
            }
            return position < maxEnd;
        }
    }

    /**
     * A login made from a name found in the same text (mrossi, o.ivanova, rossi_marco) is that person: runs of
     * letters, digits, '.', '_' and '-' that start with a letter, compared lower-cased (a sentence's full stop
     * after one is not part of it).
     */
    private void logins(String s, RegionSet logins, Covered covered, List<Finding> more) {
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (!Chars.letter(s.charAt(i)) || (i > 0 && LoginContexts.loginChar(s.charAt(i - 1)))) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < n && LoginContexts.loginChar(s.charAt(j))) {
                j++;
            }
            int end = j;
            while (end > i && s.charAt(end - 1) == '.') {
                end--;
            }
            if (end - i >= 3 && end - i <= 41 && logins.containsIgnoreCase(s, i, end) && !covered.at(i)) {
                more.add(new Finding(category, i, end));
            }
            i = j;
        }
    }

    /** The usual ways a login is made from a given name and a family name (also the cloak's propagation's). */
    public static void logins(String given, String family, java.util.Collection<String> out) {
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
    private void line(Finder f, String s, LineTokens lt, List<Finding> out) {
        int k = 0;
        while (lt.has(k)) {
            if (!candidate(lt, k)) {
                k++;
                lt.dropBefore(k - CONTEXT);
                continue;
            }
            int start = Math.max(0, k - CONTEXT);
            int end = lt.clamp(k + CONTEXT + 1);
            // extend over further candidates within reach, up to the window size
            int next = k + 1;
            while (next < end && end - start < WINDOW) {
                if (candidate(lt, next)) {
                    end = lt.clamp(Math.max(end, next + CONTEXT + 1));
                }
                next++;
            }
            end = Math.min(end, start + WINDOW);
            for (Span span : f.find(lt, start, end)) {
                int first = start + span.getStart();
                int last = start + span.getEnd() - 1;
                if (contraction(s, lt, first)) {
                    first++; // "I'm Tuomas": the model's span starts at the contraction's "m"
                }
                if (prefilter) {
                    // words that are not names at the edges of a span ("Je", "Ihre", "ecdsa-", "L'") go
                    while (first <= last && notNameEdge(lt.word(first))) {
                        first++;
                    }
                    while (last >= first && notNameEdge(lt.word(last))) {
                        last--;
                    }
                    if (first > last || !anyCapitalOrKnown(lt, first, last)) {
                        continue; // "manda o código", "dans le": lower-case words, none of them a name
                    }
                    if (first == last && unknownCased(lt.word(first))) {
                        // one word that no list knows, proposed by the model alone, is as often a place, a product
                        // or a native word as a name; cues and propagation still find such names
                        continue;
                    }
                }
                int fs = lt.start(first);
                int fe = lt.end(last);
                if (plausible(s, fs, fe) && !NameVeto.notAName(s, fs, fe)) { // issue 14: person precision
                    out.add(new Finding(category, fs, fe));
                }
            }
            k = end;
            lt.dropBefore(k - CONTEXT);
        }
    }

    /** An edge token that is no part of a name: punctuation, a sentence starter, a label or role word. */
    private static boolean notNameEdge(String w) {
        char c0 = w.charAt(0);
        if (!Character.isLetter(c0)) {
            return true;
        }
        // April, May, June and August are given names too: a span keeps them
        return (COMMON.contains(w) || NameCues.STOP.contains(w.toLowerCase(java.util.Locale.ROOT)))
                && !GIVEN_NAME_MONTHS.contains(w);
    }

    private static final Set<String> GIVEN_NAME_MONTHS = Set.of("April", "May", "June", "August");

    /** A span of lower-case words is a name only when one of them is a known name ("hi marie"). */
    private boolean anyCapitalOrKnown(LineTokens lt, int first, int last) {
        for (int k = first; k <= last; k++) {
            String w = lt.word(k);
            if (!Character.isLowerCase(w.charAt(0)) || knownNames.contains(w.toLowerCase(java.util.Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /** A word of a cased script that the name lists do not know. */
    private boolean unknownCased(String w) {
        char c0 = w.charAt(0);
        return (Character.isUpperCase(c0) || Character.isLowerCase(c0))
                && !knownNames.contains(w.toLowerCase(java.util.Locale.ROOT));
    }

    /** Token {@code k} is the tail of a contraction (I'm, we're, she's): a short lower-case word after an apostrophe. */
    private static boolean contraction(String s, LineTokens lt, int k) {
        int at = lt.start(k);
        String w = lt.word(k);
        return at > 0 && (s.charAt(at - 1) == '\'' || s.charAt(at - 1) == '\u2019') && w.length() <= 2
                && Character.isLowerCase(w.charAt(0));
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

    /**
     * Whether token {@code k} is worth running the model around, read in the text: most tokens are not, and are never
     * copied (a token with combining marks joined to it is read composed).
     */
    private boolean candidate(LineTokens lt, int k) {
        if (lt.composed(k)) {
            String w = lt.word(k);
            return candidate(w, 0, w.length());
        }
        return candidate(lt.text(), lt.start(k), lt.end(k));
    }

    /** Capitalised (not a common sentence starter), of an uncased script, or a known name in lower case or capitals. */
    private boolean candidate(String s, int a, int b) {
        if (!prefilter) {
            return true;
        }
        char c0 = s.charAt(a);
        if (!Character.isLetter(c0)) {
            return false;
        }
        if (Character.isUpperCase(c0)) {
            if (b - a == 1 || COMMON_REGIONS.contains(s, a, b)) {
                return false;
            }
            boolean allCaps = true;
            for (int i = a + 1; i < b && allCaps; i++) {
                allCaps = !Character.isLowerCase(s.charAt(i));
            }
            return !allCaps || knownRegions.containsIgnoreCase(s, a, b);
        }
        if (Character.isLowerCase(c0)) {
            return knownRegions.contains(s, a, b);
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
        String[] words = nameWords(v);
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
