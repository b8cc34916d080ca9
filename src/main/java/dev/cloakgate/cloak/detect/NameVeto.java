package dev.cloakgate.cloak.detect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * What the PERSON model tags but the context says is not a person: a place ("in Springfield", "Lincoln, NE",
 * "Madison Avenue", "Gare de Lyon"), a thing named after someone ("Planck constant", "Avogadro's number",
 * "Gaussian"), a club ("Leeds United"), a product with a version ("Hybrid 2.1") or in a code span, a particle or
 * German article alone ("der", "Von"), or a common word of the text's language written with a capital at the start
 * of a line, list item or heading, or written in lower case nearby ("Hybrid ... hybrid"). A finding with a person
 * cue (a title, a label such as "Name:" or "From:", "said", a greeting, an e-mail address made from the name) is
 * never vetoed: a missed name leaks, an extra token does not. Every rule reads a bounded neighbourhood of the
 * finding, so the cost per finding is bounded and the detector stays linear.
 */
public final class NameVeto {
    /** Characters read on each side of a finding for its line context. */
    private static final int REACH = 80;
    /** Characters searched on each side for the same word in lower case. */
    private static final int NEARBY = 1000;

    private NameVeto() {
    }

    /** German and Romance particles and articles: alone, never a name. */
    private static final Set<String> PARTICLES = Set.of("der", "die", "das", "dem", "den", "des", "von", "van",
            "de", "du", "la", "le", "les", "el", "los", "las", "del", "della", "di", "da", "dos", "y", "und", "zu",
            "zum", "zur", "am", "im", "al", "ter", "ten", "vom");
    private static final Set<String> GERMAN_ARTICLES = Set.of("der", "die", "das", "dem", "den", "des", "Der", "Die",
            "Das", "Dem", "Den", "Des", "Von", "Vom", "Zum", "Zur");

    /**
     * Words after a name that make it a place, a building, an institution or a club. Words that are also common
     * surnames (Park, Hall, Lane, Way, Hill) are left out: "Jiwoo Park" is a person.
     */
    private static final Set<String> PLACE_AFTER = Set.of("Street", "St", "Road", "Rd", "Avenue", "Ave",
            "Boulevard", "Blvd", "Drive", "Square", "Station", "Airport", "Airfield", "Terminal", "University",
            "College", "School", "Institute", "County", "Bridge", "Hospital", "Memorial", "Center", "Centre",
            "Museum", "Library", "Stadium", "Arena", "Island", "Lake", "River", "Valley", "Mountain", "Mountains",
            "Heights", "Beach", "Harbor", "Harbour", "Highway", "Parkway", "Expressway", "Tunnel", "Tramway", "Line",
            "Garden", "Gardens", "Zoo", "Building", "Tower", "Plaza", "Market", "Capitol", "Crossing", "City", "Town",
            "Township", "Province", "District", "Forest", "FC", "CF", "AFC", "SC", "United", "Rovers", "Athletic",
            "Wanderers", "Albion", "Palace", "Club", "Prize", "Award", "Medal", "Trophy", "Cup", "Foundation", "Hotel",
            "Cathedral", "Chapel", "Abbey", "Castle", "National", "Space", "Medical", "Strasse", "Straße", "Platz",
            "Bahnhof", "Allee", "Gasse", "Ring", "Metro", "Subway", "Airlines", "Hwy", "Pkwy", "Sq");

    /** Lower-case nouns after an eponym ("Planck constant", "Kalman filter", "Newton's second law"). */
    private static final Set<String> THING_AFTER = Set.of("constant", "constants", "number", "numbers", "distribution",
            "distributions", "equation", "equations", "theorem", "theorems", "effect", "law", "laws", "prize",
            "principle", "transform", "transforms", "filter", "filters", "series", "process", "machine", "machines",
            "algorithm", "coding", "code", "test", "window", "noise", "pyramid", "rule", "rules", "entropy", "rate",
            "factor", "function", "functions", "blur", "distance", "method", "chain", "chains", "model", "integral",
            "inequality", "conjecture", "lemma", "hypothesis", "paradox", "formula", "curve", "matrix", "space",
            "operator", "expression", "variable", "type", "value", "values", "search", "sort", "tree", "graph",
            "field", "scale", "index", "coefficient", "ratio", "limit", "cycle", "reaction", "cipher", "trial",
            "prior", "step", "sampler", "estimator", "bound", "units", "unit", "spectrum", "radiation", "wave",
            "funnel", "flask", "burner", "tube", "engine", "diagram", "plot", "score", "polynomial", "polynomials",
            "approximation", "correction", "displacement", "problem", "conditions", "condition", "identity", "kernel",
            "logic", "algebra", "sum", "product", "criterion", "syndrome", "disease", "scheduler", "design",
            "architecture", "lamp", "armchair", "bookcase", "clock", "rug", "router", "desk", "release", "mode",
            "backend", "codename", "protocol", "template", "theme", "plugin", "library", "package", "version");

    /** Words before a name that make it a place or a station. */
    private static final Set<String> PLACE_BEFORE = Set.of("Gare", "gare", "station", "Station", "stations", "metro",
            "Metro", "Rue", "rue", "avenue", "boulevard", "Pont", "pont", "Porte", "porte", "Quai", "quai", "Calle",
            "calle", "Avenida", "avenida", "Plaza", "Piazza", "piazza", "Viale", "viale", "Corso", "corso", "Via", "via",
            "Bahnhof", "Flughafen", "aéroport", "Aéroport", "aeropuerto", "aeroporto", "Lake", "Mount", "Mt", "Fort",
            "Port", "Saint", "Sainte", "San", "Santa", "Cape", "Correspondance", "Lycée", "lycée", "Collège", "collège",
            "Université", "Universidad", "Università", "Universität", "Hôpital", "Hospital");

    /** First words of a place's name: "Gare de Lyon", "Pont de Neuilly", "Hôtel de Ville", "Rue de Rivoli". */
    private static final Set<String> PLACE_FIRST = Set.of("Gare", "Rue", "Pont", "Porte", "Quai", "Place", "Hôtel",
            "Avenue", "Boulevard", "Calle", "Avenida", "Piazza", "Viale", "Corso", "Via", "Lycée", "Collège",
            "Université", "Universidad", "Università", "Universität", "Hôpital", "Aéroport", "Aeropuerto", "Aeroporto",
            "Estación", "Stazione", "Bahnhof", "Flughafen", "Château", "Musée", "Museo", "Parc", "Parque", "Parco");
    private static final Set<String> SAINT = Set.of("Saint", "Sainte", "San", "Santa", "St");

    /** Prepositions of place: "in Madison" (one word only, and not "in Madison's view"). */
    private static final Set<String> IN = Set.of("in", "near", "around", "outside", "across", "throughout",
            "downtown", "à", "en", "nach", "bei", "aus");

    /** After "X, ": a US state (code or name) or a country makes X a town. */
    private static final Set<String> REGIONS = Set.of("AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA",
            "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV",
            "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA",
            "WA", "WV", "WI", "WY", "DC", "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado",
            "Connecticut", "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas",
            "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi",
            "Missouri", "Montana", "Nebraska", "Nevada", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Tennessee",
            "Texas", "Utah", "Vermont", "Virginia", "Washington", "Wisconsin", "Wyoming", "USA", "UK", "England",
            "Scotland", "Wales", "Ireland", "France", "Germany", "Spain", "Italy", "Canada", "Australia", "Ontario",
            "Quebec", "Argentina", "Chile", "Mexico", "Brazil", "Portugal", "Netherlands", "Belgium", "Switzerland",
            "Austria", "Japan", "China", "India", "Poland", "Sweden", "Norway", "Denmark", "Finland", "Greece", "Turkey",
            "Hungary", "Romania", "Czechia", "Peru", "Colombia", "Uruguay", "Bolivia", "Ecuador", "Venezuela",
            "Catalonia", "Bavaria", "Tuscany", "Provence", "Andalusia", "Veneto", "Piedmont", "Burgundy");

    /** Adjectives made from a name: a method or an era, never a person. */
    private static final Set<String> EPONYM_ADJECTIVES = Set.of("Gaussian", "Boolean", "Bayesian", "Euclidean",
            "Cartesian", "Newtonian", "Hermitian", "Laplacian", "Lagrangian", "Hamiltonian", "Riemannian", "Markovian",
            "Poissonian", "Darwinian", "Freudian", "Jacobian", "Hessian", "Abelian", "Victorian", "Edwardian",
            "Elizabethan", "Keynesian", "Marxist", "Kafkaesque", "Orwellian", "Shakespearean", "Dickensian",
            "Socratic", "Aristotelian", "Machiavellian", "Wagnerian", "Napoleonic", "Gregorian",
            "Lorentzian", "Maxwellian", "Fermionic", "Bosonic", "Wilsonian", "Jeffersonian", "Hobbesian", "Kantian",
            "Hegelian", "Confucian", "Copernican", "Galilean", "Pythagorean", "Hippocratic", "Dantesque");

    /** Titles before a name (compared lower-cased, without the full stop). */
    private static final Set<String> TITLES = Set.of("mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame",
            "herr", "frau", "mme", "mlle", "monsieur", "madame", "sr", "sra", "srta", "señor", "señora", "dott",
            "dott.ssa", "sig", "sig.ra", "dra", "sgt", "capt", "rev", "lord", "lady", "m");
    /** Labels before a name, followed by ':' or '=' ("Name:", "From:", "Customer ="). */
    private static final Set<String> LABELS = Set.of("name", "names", "from", "to", "cc", "bcc", "author", "authors",
            "customer", "contact", "owner", "assignee", "reporter", "by", "von", "an", "attn", "patient", "user",
            "employee", "client", "recipient", "sender", "manager", "approver", "reviewer", "nom", "nombre", "cliente",
            "kunde", "contacto", "ansprechpartner", "de", "para", "assigned to", "signed by");
    /** Greetings and verbs of speech just before a name ("Dear", "said", "according to"). */
    private static final Set<String> ADDRESSED = Set.of("dear", "hi", "hello", "hey", "thanks", "thank you",
            "signed", "asked", "told", "met", "emailed", "contacted", "according to", "said", "says", "wrote", "cher",
            "chère", "querido", "querida", "caro", "cara", "liebe", "lieber", "bonjour", "hola", "ciao", "hallo");
    /** Verbs of speech just after a name ("Jackson said"). */
    private static final Set<String> SAID = Set.of("said", "says", "wrote", "writes", "asked", "replied", "told",
            "explained", "noted", "confirmed", "commented", "reported", "mentioned", "answered", "called", "emailed");
    /** "Hybrid 2.1", "lincoln:2.3.1", "relay@1.4", "Jackson 2.18.2", "Hybrid v2"; not a date ("28.11.2026"). */
    static final Pattern VERSION = Pattern.compile("^(?:\\s*v\\d+(?:\\.\\d+)*|[@:]v?\\d+(?:\\.\\d+)+"
            + "|\\s+\\d+\\.\\d+\\.\\d+(?!\\.)|\\s+\\d{1,2}\\.\\d(?![\\d.])|\\s+\\d\\.\\d\\d(?![\\d.]))\\b");
    private static final Pattern DATE = Pattern.compile("^\\s+\\d{1,2}\\.\\d{1,2}\\.\\d{2,4}\\b");
    /** An e-mail address's local part: what {@link #emailLocals} reads (NameVetoTest compares them). */
    static final Pattern EMAIL_LOCAL = Pattern.compile("([\\w.+-]+)@[\\w-]+\\.");

    /**
     * Lower-case words of en, es, fr, it that are not known given names or surnames (DETECTION.md, "What is not a
     * name"): about 200,000 words kept as one sorted UTF-8 block and searched by bisection (2 MB of heap, not the 20
     * of a hash set), loaded the first time a finding needs it.
     */
    private static final class Words {
        static final Words COMMON = load();
        private final byte[] text;
        private final int[] starts;

        private Words(byte[] text, int[] starts) {
            this.text = text;
            this.starts = starts;
        }

        private static Words load() {
            try (InputStream raw = NameVeto.class.getResourceAsStream("/words/common-words.txt.gz")) {
                if (raw == null) {
                    throw new IllegalStateException("the common-word list is missing from the build");
                }
                byte[] text;
                try (InputStream in = new GZIPInputStream(raw, 1 << 16)) {
                    text = in.readAllBytes();
                }
                int n = 0;
                for (byte c : text) {
                    n += c == '\n' ? 1 : 0;
                }
                int[] starts = new int[n + 1];
                int k = 1;
                for (int i = 0; i < text.length; i++) {
                    if (text[i] == '\n' && k <= n) {
                        starts[k++] = i + 1;
                    }
                }
                return new Words(text, starts);
            } catch (IOException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }

        /** Words sorted by code point, which for these letters is the order of their UTF-8 bytes. */
        boolean contains(String word) {
            byte[] w = word.getBytes(StandardCharsets.UTF_8);
            int lo = 0;
            int hi = starts.length - 2;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int c = java.util.Arrays.compareUnsigned(text, starts[mid], starts[mid + 1] - 1, w, 0, w.length);
                if (c == 0) {
                    return true;
                }
                if (c < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return false;
        }
    }

    /** Whether the model's finding {@code s[start, end)} is, by its context, not a person's name. */
    public static boolean notAName(String s, int start, int end) {
        String v = s.substring(start, end);
        String[] words = words(v);
        if (words.length == 1 && (PARTICLES.contains(v) || GERMAN_ARTICLES.contains(v))) {
            return true; // "der", "von", "Von" alone: a particle or an article is never the name
        }
        if (v.contains("    ")) {
            return true; // across the columns of a fixed-width table ("2m          Normal")
        }
        if (words.length == 1 && particleCompound(s, end)) {
            return true; // "Kick-off", "Follow-up": a noun made of a verb and a particle; a name's second part is capitalised
        }
        int lineStart = lineStart(s, start);
        int lineEnd = lineEnd(s, end);
        String before = s.substring(lineStart, start);
        String after = s.substring(end, lineEnd);
        if (personCue(s, words, before, after, lineStart, lineEnd)) {
            return false;
        }
        String prev = lastWord(before);
        if (GERMAN_ARTICLES.contains(words[0]) && words.length <= 2 && !"von".equalsIgnoreCase(prev)
                && !"van".equalsIgnoreCase(prev)) {
            return true; // "der Vorgang", "Von den": an article and a noun
        }
        return lowerCaseWords(words) || place(words, before, after, prev) || thing(words, after)
                || code(s, start, lineStart, after)
                || commonWord(s, v, words, start, end, before, lineStart == 0 || s.charAt(lineStart - 1) == '\n');
    }

    /** Adverb particles of English compound nouns (kick-off, check-in, roll-out), lower case after a hyphen. */
    private static final Set<String> COMPOUND_PARTICLES = Set.of("off", "up", "in", "out", "on", "over", "down",
            "back", "by", "through", "away", "about", "around");

    /** {@code s} continues at {@code end} with a hyphen and a lower-case particle that ends there. */
    private static boolean particleCompound(String s, int end) {
        if (end + 3 > s.length() || s.charAt(end) != '-') {
            return false;
        }
        int j = end + 1;
        while (j < s.length() && j - end <= 8 && Character.isLowerCase(s.charAt(j))) {
            j++;
        }
        return (j == s.length() || !Character.isLetterOrDigit(s.charAt(j)))
                && COMPOUND_PARTICLES.contains(s.substring(end + 1, j));
    }

    /**
     * Names are capitalised words with lower-case particles between them: a span that ends in a lower-case word
     * ("Kalman filter", "Hybrid router", "Wine list"), has a German article inside that is not "von der"
     * ("Anzahl der Sitzungen"), or is all lower case and made of particles and common words ("el calamar", "molar
     * gas constant") is a phrase.
     */
    private static boolean lowerCaseWords(String[] words) {
        boolean anyCapital = false;
        boolean allCommon = true;
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            anyCapital |= Character.isUpperCase(w.charAt(0));
            allCommon &= PARTICLES.contains(w) || lowerWord(w) && Words.COMMON.contains(w);
            if (i > 0 && GERMAN_ARTICLES.contains(w) && Character.isLowerCase(w.charAt(0))
                    && !"von".equalsIgnoreCase(words[i - 1]) && !"van".equalsIgnoreCase(words[i - 1])) {
                return true;
            }
        }
        String last = words[words.length - 1];
        if (words.length > 1 && anyCapital && lowerWord(last) && !PARTICLES.contains(last)) {
            return true;
        }
        return !anyCapital && allCommon;
    }

    private static boolean lowerWord(String w) {
        for (int i = 0; i < w.length(); i++) {
            if (!Character.isLowerCase(w.charAt(i))) {
                return false;
            }
        }
        return w.length() >= 2;
    }

    private static boolean personCue(String s, String[] words, String before, String after, int lineStart,
            int lineEnd) {
        // word sets, not regular expressions: this runs for every finding of name-dense text
        int e = before.length();
        while (e > 0 && (before.charAt(e - 1) == ' ' || before.charAt(e - 1) == '"' || before.charAt(e - 1) == '\'')) {
            e--;
        }
        char mark = e > 0 ? before.charAt(e - 1) : '\n';
        String t = before.substring(0, mark == ':' || mark == '=' || mark == ',' || mark == '.' ? e - 1 : e).stripTrailing();
        String last = lastWord(t).toLowerCase(Locale.ROOT);
        String lastTwo = (lastWord(t.substring(0, t.length() - last.length())) + " " + last).toLowerCase(Locale.ROOT);
        if ((mark == ':' || mark == '=') && (LABELS.contains(last) || LABELS.contains(lastTwo))) {
            return true;
        }
        if (mark != ':' && mark != '=' && (ADDRESSED.contains(last) || ADDRESSED.contains(lastTwo))) {
            return true;
        }
        if (TITLES.contains(last) && (mark == '.' || e < before.length())) {
            return true;
        }
        for (int i = 0; i + 1 < words.length; i++) {
            String w = words[i].endsWith(".") ? words[i].substring(0, words[i].length() - 1) : words[i];
            if (TITLES.contains(w.toLowerCase(Locale.ROOT))) {
                return true; // the model took the title in: "Remplace M. Garnier depuis"
            }
        }
        String rest = after.startsWith("'s") || after.startsWith("\u2019s") ? after.substring(2) : after;
        if (SAID.contains(firstWord(rest.startsWith(",") ? rest.substring(1) : rest).toLowerCase(Locale.ROOT))
                || emailNext(after)) {
            return true;
        }
        // an e-mail address on the same line made from a part of the name: that person's address
        int at = lineStart;
        while (at < lineEnd && s.charAt(at) != '@') {
            at++;
        }
        if (at == lineEnd) {
            return false;
        }
        for (String local : emailLocals(s, lineStart, lineEnd)) {
            String l = local.toLowerCase(Locale.ROOT);
            for (String w : words) {
                if (w.length() >= 3 && l.contains(w.toLowerCase(Locale.ROOT))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The local parts {@link #EMAIL_LOCAL} finds in {@code s[from, to)} (its group 1, match after match), read by
     * hand from each '@': this runs for every finding on a line with an address.
     */
    static List<String> emailLocals(String s, int from, int to) {
        List<String> out = new java.util.ArrayList<>(2);
        int searchFrom = from;
        int at = s.indexOf('@', from);
        while (at >= 0 && at < to) {
            int p = at;
            while (p > searchFrom && localChar(s.charAt(p - 1))) {
                p--;
            }
            int b = at + 1;
            while (b < to && (wordChar(s.charAt(b)) || s.charAt(b) == '-')) {
                b++;
            }
            if (p < at && b > at + 1 && b < to && s.charAt(b) == '.') {
                out.add(s.substring(p, at));
                searchFrom = b + 1; // the next match starts after this one's '.'
                at = s.indexOf('@', searchFrom);
            } else {
                at = s.indexOf('@', at + 1);
            }
        }
        return out;
    }

    /** A regular expression's {@code \\w} (ASCII). */
    private static boolean wordChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /** {@code [\\w.+-]}. */
    private static boolean localChar(char c) {
        return wordChar(c) || c == '.' || c == '+' || c == '-';
    }

    private static boolean place(String[] words, String before, String after, String prev) {
        String last = words[words.length - 1];
        if (words.length > 1 && (PLACE_AFTER.contains(last) || PLACE_FIRST.contains(words[0]))) {
            return true; // the model took "Madison Avenue", "Gare de Lyon", "Pont de Neuilly" whole
        }
        String rest = after.startsWith(".") && (last.length() <= 2 || last.equals("Jr") || last.equals("Sr"))
                ? after.substring(1) : after; // "Martin Luther King Jr. Boulevard"
        if (PLACE_AFTER.contains(firstWord(rest)) && !after.startsWith("'") && !after.startsWith("\u2019")) {
            return true;
        }
        if (PLACE_BEFORE.contains(prev) && (before.endsWith(" ") || before.endsWith("-") && SAINT.contains(prev))) {
            return true;
        }
        if (words.length == 1 && IN.contains(prev) && before.endsWith(" ") && !after.startsWith("'")
                && !after.startsWith("\u2019")) {
            return true;
        }
        if (words.length == 1 && REGIONS.contains(last) && (before.endsWith(",") || before.endsWith(", ")
                || prev.equals("of") && before.endsWith(" "))) {
            return true; // "Springfield,MO", "Lincoln, Nebraska", "University of Missouri"
        }
        if (after.startsWith(",")) {
            String region = firstWord(after.substring(1));
            return REGIONS.contains(region);
        }
        return false;
    }

    private static boolean thing(String[] words, String after) {
        if (words.length == 1 && EPONYM_ADJECTIVES.contains(words[0])) {
            return true;
        }
        String rest = after;
        if (rest.startsWith("'s") || rest.startsWith("\u2019s")) {
            rest = rest.substring(2);
        } else if (rest.startsWith("'") || rest.startsWith("\u2019")) {
            rest = rest.substring(1);
        }
        String next = firstWord(rest);
        if (THING_AFTER.contains(next)) {
            return true;
        }
        // one word between: "Newton's second law", "Student t distribution", "Wien's displacement law"
        if (next.isEmpty() || !(Character.isLowerCase(next.charAt(0)) || next.length() == 1)) {
            return false;
        }
        String tail = rest.substring(rest.indexOf(next) + next.length());
        return THING_AFTER.contains(firstWord(tail));
    }

    /**
     * Whether {@code \s*[,(<]?\s*[\w.+-]+@} matches at the start of {@code t} (an address follows the name): read
     * without a matcher per finding.
     */
    static boolean emailNext(String t) {
        int n = t.length();
        int i = regexSpaces(t, 0);
        if (i < n && (t.charAt(i) == ',' || t.charAt(i) == '(' || t.charAt(i) == '<')) {
            i = regexSpaces(t, i + 1);
        }
        int j = i;
        while (j < n && (regexWord(t.charAt(j)) || t.charAt(j) == '.' || t.charAt(j) == '+' || t.charAt(j) == '-')) {
            j++;
        }
        return j > i && j < n && t.charAt(j) == '@';
    }

    /** False when {@link #VERSION} surely does not match at the start of {@code t} (most findings have no version after). */
    static boolean maybeVersion(String t) {
        int i = regexSpaces(t, 0);
        if (i >= t.length()) {
            return false;
        }
        char c = t.charAt(i);
        return c == 'v' || i > 0 && c >= '0' && c <= '9' || i == 0 && (c == '@' || c == ':');
    }

    /** After the regular expressions' {@code \s*} from {@code i} (ASCII whitespace, as {@code \s} reads by default). */
    private static int regexSpaces(String t, int i) {
        while (i < t.length() && (t.charAt(i) == ' ' || t.charAt(i) >= '\t' && t.charAt(i) <= '\r')) {
            i++;
        }
        return i;
    }

    /** The regular expressions' {@code \w} (ASCII, as it reads by default). */
    private static boolean regexWord(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /** A product in a code span (`hybrid`) or with a version ("Hybrid 2.1", "lincoln:2.3.1"). */
    private static boolean code(String s, int start, int lineStart, String after) {
        if (maybeVersion(after) && VERSION.matcher(after).lookingAt() && !DATE.matcher(after).lookingAt()) {
            return true;
        }
        int ticks = 0;
        for (int i = Math.max(lineStart, start - 4 * REACH); i < start; i++) {
            ticks += s.charAt(i) == '`' ? 1 : 0;
        }
        return ticks % 2 == 1;
    }

    /**
     * A common word of the text's languages, not a known name, written with a capital where any word gets one (the
     * start of a line, list item, table cell or heading), or written in lower case nearby.
     */
    private static boolean commonWord(String s, String v, String[] words, int start, int end, String before,
            boolean wholeLine) {
        if (words.length != 1) {
            return false;
        }
        String lower = v.toLowerCase(Locale.ROOT);
        if (!Words.COMMON.contains(lower)) {
            return false;
        }
        if (wholeLine && startOfItem(before)) {
            return true;
        }
        int from = Math.max(0, start - NEARBY);
        int to = Math.min(s.length(), end + NEARBY);
        // searched within the reach only: String.indexOf would run on to the end of the text when the word is not
        // there, once per finding, which made a large text with many such findings quadratic
        for (int i = from; i + lower.length() <= to; i++) {
            if (!s.regionMatches(i, lower, 0, lower.length())) {
                continue;
            }
            boolean open = i == 0 || !Character.isLetter(s.charAt(i - 1));
            int e = i + lower.length();
            if (open && (e == s.length() || !Character.isLetter(s.charAt(e)))) {
                return true;
            }
        }
        return false;
    }

    /** Whether only bullets, numbering, heading marks and spaces stand between the line's start and the word. */
    private static boolean startOfItem(String before) {
        for (int i = 0; i < before.length(); i++) {
            char c = before.charAt(i);
            if (!(Character.isWhitespace(c) || Character.isDigit(c) || "-*\u2022#>|.)(:[]".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    /** The whitespace-separated words of a finding (no regular expression: this runs for every finding). */
    private static String[] words(String v) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>(4);
        int i = 0;
        int n = v.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(v.charAt(i))) {
                i++;
            }
            int b = i;
            while (i < n && !Character.isWhitespace(v.charAt(i))) {
                i++;
            }
            if (i > b) {
                out.add(v.substring(b, i));
            }
        }
        return out.isEmpty() ? new String[] { v } : out.toArray(new String[0]);
    }

    private static int lineStart(String s, int at) {
        int floor = Math.max(0, at - REACH);
        for (int i = at - 1; i >= floor; i--) {
            if (s.charAt(i) == '\n') {
                return i + 1;
            }
        }
        return floor;
    }

    private static int lineEnd(String s, int at) {
        int ceil = Math.min(s.length(), at + REACH);
        for (int i = at; i < ceil; i++) {
            if (s.charAt(i) == '\n') {
                return i;
            }
        }
        return ceil;
    }

    /** The last run of letters in {@code t}, if only spaces follow it; else "". */
    private static String lastWord(String t) {
        int e = t.length();
        while (e > 0 && t.charAt(e - 1) == ' ') {
            e--;
        }
        int b = e;
        while (b > 0 && Character.isLetter(t.charAt(b - 1))) {
            b--;
        }
        return t.substring(b, e);
    }

    /** The first run of letters in {@code t} after spaces; "" if something else comes first. */
    private static String firstWord(String t) {
        int b = 0;
        while (b < t.length() && t.charAt(b) == ' ') {
            b++;
        }
        int e = b;
        while (e < t.length() && Character.isLetter(t.charAt(e))) {
            e++;
        }
        return t.substring(b, e);
    }
}
