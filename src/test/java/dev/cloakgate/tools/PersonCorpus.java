package dev.cloakgate.tools;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import net.datafaker.Faker;
import opennlp.tools.dictionary.Dictionary;
import opennlp.tools.namefind.NameSample;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.ObjectStream;
import opennlp.tools.util.ObjectStreamUtils;
import opennlp.tools.util.Span;
import opennlp.tools.util.StringList;

/**
 * Deterministic synthetic corpus of PERSON-annotated lines for the OpenNLP name finder.
 *
 * <p>Documents are instantiated from the line templates in {@link PersonCorpusTemplates}: person
 * placeholders ({@code {P1}}, {@code {F1}}, ...) are filled with names drawn from Datafaker across
 * many locales and scripts and become {@code person} spans; every other placeholder is filled with
 * a non-person value (place, organisation, product, identifier, date, ...) and stays outside any
 * span. Each rendered line is tokenized with {@link SimpleTokenizer#INSTANCE}, exactly as the runtime
 * does, and becomes one {@link NameSample}; the first sample of a document clears adaptive data,
 * mirroring the runtime's {@code clearAdaptiveData()} between documents.
 *
 * <p>Everything is driven by seeded {@link Random}s (one for the corpus, one per Datafaker locale),
 * templates are visited in a fixed order and no hash-ordered collection is iterated, so the same
 * seed and split always produce the same samples.
 */
public final class PersonCorpus {

    /** Entity type the runtime maps to the PERSON category. */
    public static final String TYPE = "person";

    /** The runtime feeds the model windows of at most this many tokens. */
    public static final int MAX_WINDOW_TOKENS = 64;

    /** Which templates, locales and vocabulary a corpus draws from. */
    public enum Split { TRAIN, HELDOUT }

    /** How a document is cased. Applied to whole segments, so span offsets stay exact. */
    public enum CaseMode { NORMAL, LOWER, UPPER, NAMES_LOWER, SURNAME_UPPER }

    /*
     * Template i in round r is rendered with CASE_CYCLE[(r + i) % length], so once there are at
     * least CASE_CYCLE.length rounds every template has been seen in every casing; half of all
     * documents stay in normal case.
     */
    private static final CaseMode[] CASE_CYCLE = {
        CaseMode.NORMAL, CaseMode.LOWER, CaseMode.NORMAL, CaseMode.UPPER,
        CaseMode.NORMAL, CaseMode.NAMES_LOWER, CaseMode.NORMAL, CaseMode.LOWER,
        CaseMode.NORMAL, CaseMode.UPPER, CaseMode.NORMAL, CaseMode.SURNAME_UPPER,
    };

    /** How Datafaker is asked for names in a locale (the yml keys differ between locales). */
    enum NameKeys {
        /** {@code firstName()} / {@code lastName()}. */
        DEFAULT,
        /** {@code name.male_first_name} etc.: the locale has no usable {@code last_name} key. */
        GENDERED,
        /** As GENDERED, plus an occasional patronymic from {@code name.*_middle_name}. */
        GENDERED_PATRONYMIC,
        /** The cs yml names its keys {@code man_first_name}, {@code woman_last_name}, ... */
        CZECH,
        /** Only given names exist (ta): a second given name stands in as the father's name. */
        GIVEN_ONLY,
        /** Datafaker has no list for the locale: names from {@link PersonNameLists} (written for this project). */
        HAND_WRITTEN
    }

    /**
     * A Datafaker locale and how often it is drawn in each split. Locales with a zero TRAIN
     * weight are never seen in training, so the held-out score says something about unseen names.
     *
     * @param familyFirst native order is family name first (hu, ja, zh, ko, vi)
     * @param joiner      what separates family and given name in the native order ("" for zh, ko)
     */
    record LocaleSpec(String tag, double train, double heldout, NameKeys keys, boolean familyFirst,
                      String joiner) {
        String lang() {
            return tag.contains("-") ? tag.substring(0, tag.indexOf('-')) : tag;
        }
    }

    static final List<LocaleSpec> LOCALES = List.of(
        // English-speaking, with locale-specific name lists (en-GB has none of its own: it gives en-US names)
        new LocaleSpec("en-US", 12, 4, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("en-IN", 3, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("en-NG", 3, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("en-PK", 2, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("en-UG", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("en-PH", 1, 0.5, NameKeys.DEFAULT, false, " "),
        // Latin script with diacritics
        new LocaleSpec("fr", 4, 1.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("de", 4, 1.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("es", 3, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("es-MX", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("it", 3, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("nl", 2, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("pt-BR", 3, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("pl", 2, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("sv", 2, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("nb-NO", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("da-DK", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("tr", 2, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("sk", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("cs", 0.5, 0.3, NameKeys.CZECH, false, " "),
        new LocaleSpec("hr", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("id", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("vi", 1, 0.5, NameKeys.DEFAULT, true, " "),
        // Other scripts
        new LocaleSpec("ru", 2, 1, NameKeys.GENDERED_PATRONYMIC, false, " "),
        new LocaleSpec("bg", 1, 0.5, NameKeys.GENDERED_PATRONYMIC, false, " "),
        new LocaleSpec("el-GR", 1.5, 1, NameKeys.GENDERED, false, " "),
        new LocaleSpec("ar", 2, 1, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("fa", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("he", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("ja", 2, 1, NameKeys.DEFAULT, true, " "),
        new LocaleSpec("zh-CN", 2, 1, NameKeys.DEFAULT, true, ""),
        new LocaleSpec("ko", 1, 0.5, NameKeys.DEFAULT, true, ""),
        new LocaleSpec("th", 0.5, 0.3, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("hy", 0.5, 0.3, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("ka", 0.5, 0.3, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("ta", 0.5, 0.3, NameKeys.GIVEN_ONLY, false, " "),
        // issue 14: names of these cultures were missed in held-out public text, so they are trained on now
        // (hu, fi-FI, et, lv, pt, uk, en-ZA were held-out-only before); is, mi and ar-Latn (Arabic names in Latin
        // script) come from the hand-written lists of PersonNameLists
        new LocaleSpec("hu", 1.5, 1, NameKeys.DEFAULT, true, " "),
        new LocaleSpec("fi-FI", 1.5, 0.7, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("uk", 1, 0.7, NameKeys.GENDERED, false, " "),
        new LocaleSpec("lv", 0.5, 0.4, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("et", 0.5, 0.4, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("pt", 1, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("en-ZA", 0.7, 0.5, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("is", 1, 0.5, NameKeys.HAND_WRITTEN, false, " "),
        new LocaleSpec("mi", 0.7, 0.4, NameKeys.HAND_WRITTEN, false, " "),
        new LocaleSpec("ar-Latn", 1, 0.5, NameKeys.HAND_WRITTEN, false, " "),
        // Held-out only: never seen in training
        new LocaleSpec("be", 0, 0.7, NameKeys.GENDERED, false, " "),
        new LocaleSpec("mk", 0, 0.7, NameKeys.DEFAULT, false, " "),
        new LocaleSpec("zh-TW", 0, 1, NameKeys.DEFAULT, true, ""),
        new LocaleSpec("sq", 0, 0.7, NameKeys.DEFAULT, false, " "));

    /** A gold name span (token offsets within its sample) with where the name came from. */
    public record GoldName(Span span, String locale, String script) {}

    /** One rendered document: its raw lines, and its samples (one or more per non-blank line). */
    public record Document(String templateId, String family, CaseMode caseMode, String locale,
                           List<String> lines, List<NameSample> samples, List<List<GoldName>> gold) {}

    /** Counters over a generated corpus, for the training log. */
    public record Stats(int documents, int samples, int tokens, int names, int samplesWithoutNames,
                        int droppedLines, Map<String, Integer> namesByScript, Map<String, Integer> namesByLocale) {}

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Z]+)([1-6]?)\\}");

    private final Split split;
    private final Random rnd;
    private final Map<String, Faker> fakers = new LinkedHashMap<>();
    private final List<LocaleSpec> locales = new ArrayList<>();
    private final double[] cumulativeWeights;
    private final PersonCorpusTemplates.Vocabulary vocab;
    private int droppedLines;

    public PersonCorpus(Split split, long seed) {
        this.split = split;
        this.rnd = new Random(seed);
        double total = 0;
        List<Double> cumulative = new ArrayList<>();
        for (LocaleSpec spec : LOCALES) {
            // one Random per locale, derived from the corpus seed: adding a locale does not reshuffle the others
            // a hand-written locale has no Datafaker locale: its vocabulary (cities, products) is English
            fakers.put(spec.tag(), new Faker(Locale.forLanguageTag(spec.keys() == NameKeys.HAND_WRITTEN ? "en" : spec.tag()),
                new Random(seed * 31 + spec.tag().hashCode())));
            double w = split == Split.TRAIN ? spec.train() : spec.heldout();
            if (w > 0) {
                locales.add(spec);
                total += w;
                cumulative.add(total);
            }
        }
        cumulativeWeights = cumulative.stream().mapToDouble(d -> d / cumulative.get(cumulative.size() - 1)).toArray();
        vocab = new PersonCorpusTemplates.Vocabulary(split, fakers.get("en-US"), rnd);
    }

    /** Locale tags with a non-zero training weight. */
    public static List<String> trainingLocales() {
        return LOCALES.stream().filter(l -> l.train() > 0).map(LocaleSpec::tag).toList();
    }

    /**
     * Renders every template of this split {@code rounds} times (casing rotates with the round),
     * then shuffles the documents (order matters to the perceptron trainer).
     */
    public List<Document> generate(int rounds) {
        List<PersonCorpusTemplates.DocTemplate> templates = PersonCorpusTemplates.templates(split);
        for (PersonCorpusTemplates.DocTemplate t : templates) {
            if (split == Split.TRAIN && t.locale() != null && spec(t.locale()).train() <= 0) {
                throw new IllegalStateException(t.id() + " uses held-out-only locale " + t.locale());
            }
        }
        List<Document> docs = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < templates.size(); i++) {
                docs.add(render(templates.get(i), CASE_CYCLE[(round + i) % CASE_CYCLE.length]));
            }
        }
        Collections.shuffle(docs, rnd);
        return docs;
    }

    public static ObjectStream<NameSample> samples(List<Document> docs) {
        List<NameSample> all = new ArrayList<>();
        for (Document d : docs) {
            all.addAll(d.samples());
        }
        return ObjectStreamUtils.createObjectStream(all);
    }

    public Stats stats(List<Document> docs) {
        int samples = 0, tokens = 0, names = 0, empty = 0;
        Map<String, Integer> byScript = new TreeMap<>();
        Map<String, Integer> byLocale = new TreeMap<>();
        for (Document d : docs) {
            for (int i = 0; i < d.samples().size(); i++) {
                samples++;
                tokens += d.samples().get(i).getSentence().length;
                List<GoldName> g = d.gold().get(i);
                names += g.size();
                if (g.isEmpty()) {
                    empty++;
                }
                for (GoldName n : g) {
                    byScript.merge(n.script(), 1, Integer::sum);
                    byLocale.merge(n.locale(), 1, Integer::sum);
                }
            }
        }
        return new Stats(docs.size(), samples, tokens, names, empty, droppedLines, byScript, byLocale);
    }

    // ------------------------------------------------------------------ name dictionary

    private static final String[] NAME_KEYS = {
        "name.first_name", "name.last_name", "name.male_first_name", "name.female_first_name",
        "name.male_last_name", "name.female_last_name", "name.man_first_name", "name.woman_first_name",
        "name.man_last_name", "name.woman_last_name", "name.tamil_male_name", "name.tamil_female_name"};

    /**
     * Every given and family name token in Datafaker's lists for the training locales, for the
     * model's dictionary feature. Held-out-only locales are left out, so the held-out score still
     * says something about names the model has never seen. Matching is case-insensitive.
     */
    public static Dictionary nameDictionary() {
        TreeSet<String> names = new TreeSet<>();
        for (LocaleSpec spec : LOCALES) {
            if (spec.train() <= 0) {
                continue;
            }
            if (spec.keys() == NameKeys.HAND_WRITTEN) {
                for (String name : PersonNameLists.all(spec.tag())) {
                    for (String token : SimpleTokenizer.INSTANCE.tokenize(name)) {
                        if (isNameToken(token)) {
                            names.add(token);
                        }
                    }
                }
                continue;
            }
            Faker f = new Faker(Locale.forLanguageTag(spec.tag()), new Random(0));
            for (String key : NAME_KEYS) {
                Object values = f.fakeValuesService().fetchObject(key, f.getContext());
                if (!(values instanceof List<?> list)) {
                    continue;
                }
                for (Object v : list) {
                    String name = String.valueOf(v);
                    if (name.contains("#{")) {
                        continue; // an expression such as #{Name.femaleFirstName}, resolved by its own key
                    }
                    for (String token : SimpleTokenizer.INSTANCE.tokenize(name)) {
                        if (isNameToken(token)) {
                            names.add(token);
                        }
                    }
                }
            }
        }
        Dictionary d = new Dictionary(false);
        for (String n : names) {
            d.put(new StringList(n));
        }
        return d;
    }

    /** Letters only, not starting lower case (drops "de", "van"); one letter only for Han and Hangul surnames. */
    private static boolean isNameToken(String token) {
        if (!token.codePoints().allMatch(cp -> Character.isLetter(cp) || Character.getType(cp) == Character.NON_SPACING_MARK
            || Character.getType(cp) == Character.COMBINING_SPACING_MARK)) {
            return false;
        }
        int first = token.codePointAt(0);
        if (Character.isLowerCase(first)) {
            return false;
        }
        String script = scriptOf(token);
        return token.codePointCount(0, token.length()) >= 2 || script.equals("HAN") || script.equals("HANGUL");
    }

    // ------------------------------------------------------------------ documents and lines

    private Document render(PersonCorpusTemplates.DocTemplate template, CaseMode caseMode) {
        LocaleSpec docLocale = template.locale() == null ? pickLocale() : spec(template.locale());
        Person[] cast = new Person[7];
        List<String> lines = new ArrayList<>();
        List<NameSample> samples = new ArrayList<>();
        List<List<GoldName>> gold = new ArrayList<>();
        for (String raw : template.lines()) {
            String line = raw;
            int repeats = 1;
            if (line.startsWith("?")) {
                if (rnd.nextBoolean()) {
                    continue;
                }
                line = line.substring(1);
            } else if (line.startsWith("*")) {
                repeats = 2 + rnd.nextInt(5);
                line = line.substring(1);
            }
            for (int rep = 0; rep < repeats; rep++) {
                if (repeats > 1) {
                    Arrays.fill(cast, null); // every table row is about new people
                }
                List<Segment> segments = renderLine(line, cast, docLocale, caseMode);
                addLine(segments, caseMode, samples.isEmpty(), lines, samples, gold);
            }
        }
        return new Document(template.id(), template.family(), caseMode, docLocale.tag(), lines, samples, gold);
    }

    /** A piece of a rendered line; person segments become spans. */
    private record Segment(String text, Person person) {}

    private List<Segment> renderLine(String template, Person[] cast, LocaleSpec docLocale, CaseMode caseMode) {
        List<Segment> out = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(template);
        int last = 0;
        while (m.find()) {
            if (m.start() > last) {
                out.add(new Segment(template.substring(last, m.start()), null));
            }
            String slot = m.group(1);
            if (m.group(2).isEmpty()) {
                // non-person value; may itself contain placeholders (e.g. a ticket subject with {NUM})
                out.add(new Segment(expandPlain(vocab.value(slot, docLocale.tag(), fakers)), null));
            } else {
                int idx = Integer.parseInt(m.group(2));
                if (cast[idx] == null) {
                    cast[idx] = newPerson(rnd.nextDouble() < 0.75 ? docLocale : pickLocale());
                }
                renderPersonSlot(slot, cast[idx], caseMode == CaseMode.SURNAME_UPPER, out);
            }
            last = m.end();
        }
        if (last < template.length()) {
            out.add(new Segment(template.substring(last), null));
        }
        return out;
    }

    private String expandPlain(String value) {
        Matcher m = PLACEHOLDER.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            if (!m.group(2).isEmpty()) {
                throw new IllegalStateException("person placeholder inside a vocabulary value: " + value);
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(expandPlain(vocab.value(m.group(1), "en-US", fakers))));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * Person placeholders. The span is only ever the name itself: titles ({@code TL}, {@code TP}),
     * e-mail addresses ({@code E}) and logins ({@code U}) are emitted as plain text.
     */
    private void renderPersonSlot(String slot, Person p, boolean surnameUpper, List<Segment> out) {
        switch (slot) {
            case "P" -> out.add(new Segment(p.render(fullForm(), surnameUpper), p));
            case "F" -> out.add(new Segment(p.render(Form.GIVEN, surnameUpper), p));
            case "N" -> out.add(new Segment(p.render(addressForm(), surnameUpper), p));
            case "L" -> out.add(new Segment(p.render(Form.FAMILY, surnameUpper), p));
            case "LF" -> out.add(new Segment(p.render(Form.FAMILY_COMMA_GIVEN, surnameUpper), p));
            case "IL" -> out.add(new Segment(p.render(Form.INITIAL_FAMILY, surnameUpper), p));
            case "R" -> renderReference(p, surnameUpper, out);
            case "TL" -> {
                out.add(new Segment(p.title() + " ", null));
                out.add(new Segment(p.render(Form.FAMILY, surnameUpper), p));
            }
            case "TP" -> {
                out.add(new Segment(p.title() + " ", null));
                out.add(new Segment(p.render(Form.FULL, surnameUpper), p));
            }
            case "E" -> out.add(new Segment(p.email(), null));
            case "U" -> out.add(new Segment(p.login(), null));
            default -> throw new IllegalArgumentException("unknown person placeholder {" + slot + "n}");
        }
    }

    private Form fullForm() {
        double x = rnd.nextDouble();
        return x < 0.88 ? Form.FULL : x < 0.95 ? Form.FAMILY_GIVEN : Form.GIVEN_INITIAL;
    }

    /**
     * How people are addressed or named in greetings, chat and notes: mostly the given name, often
     * the full name. Without the full-name share every context word seen after a given name ("said",
     * ":") would teach the model that a name ends after one token.
     */
    private Form addressForm() {
        double x = rnd.nextDouble();
        return x < 0.6 ? Form.GIVEN : x < 0.92 ? Form.FULL : Form.GIVEN_INITIAL;
    }

    /** The many ways prose refers to somebody. */
    private void renderReference(Person p, boolean surnameUpper, List<Segment> out) {
        double x = rnd.nextDouble();
        if (x < 0.14) {
            out.add(new Segment(p.title() + " ", null));
            out.add(new Segment(p.render(x < 0.10 ? Form.FAMILY : Form.FULL, surnameUpper), p));
            return;
        }
        Form form = x < 0.52 ? Form.FULL : x < 0.74 ? Form.GIVEN : x < 0.84 ? Form.INITIAL_FAMILY
            : x < 0.90 ? Form.FAMILY : x < 0.95 ? Form.FAMILY_COMMA_GIVEN : Form.GIVEN_INITIAL;
        out.add(new Segment(p.render(form, surnameUpper), p));
    }

    /**
     * Cases the segments, concatenates them, tokenizes the line and maps person segments to token
     * spans. A line whose name boundary falls inside a token (e.g. "J." followed by "." tokenizes
     * as "J" "..") cannot be represented and is dropped.
     */
    private void addLine(List<Segment> segments, CaseMode mode, boolean firstOfDocument,
                         List<String> lines, List<NameSample> samples, List<List<GoldName>> gold) {
        StringBuilder text = new StringBuilder();
        List<int[]> charSpans = new ArrayList<>();
        List<Person> owners = new ArrayList<>();
        for (Segment s : segments) {
            String t = applyCase(s.text(), mode, s.person() != null);
            if (s.person() != null) {
                charSpans.add(new int[] {text.length(), text.length() + t.length()});
                owners.add(s.person());
            }
            text.append(t);
        }
        String line = text.toString();
        lines.add(line);
        Span[] tokenSpans = SimpleTokenizer.INSTANCE.tokenizePos(line);
        if (tokenSpans.length == 0) {
            return;
        }
        String[] tokens = Span.spansToStrings(tokenSpans, line);
        List<GoldName> names = new ArrayList<>();
        for (int i = 0; i < charSpans.size(); i++) {
            int start = tokenStarting(tokenSpans, charSpans.get(i)[0]);
            int end = tokenEnding(tokenSpans, charSpans.get(i)[1]);
            if (start < 0 || end < 0) {
                droppedLines++;
                return;
            }
            Person p = owners.get(i);
            names.add(new GoldName(new Span(start, end + 1, TYPE), p.locale(), p.script()));
        }
        // the runtime never shows the model more than MAX_WINDOW_TOKENS tokens at once
        int from = 0;
        boolean clear = firstOfDocument;
        while (from < tokens.length) {
            int to = Math.min(tokens.length, from + MAX_WINDOW_TOKENS);
            for (GoldName n : names) { // never cut a name in two
                if (n.span().getStart() < to && n.span().getEnd() > to && n.span().getStart() > from) {
                    to = n.span().getStart();
                }
            }
            List<Span> windowSpans = new ArrayList<>();
            List<GoldName> windowGold = new ArrayList<>();
            for (GoldName n : names) {
                if (n.span().getStart() >= from && n.span().getEnd() <= to) {
                    Span shifted = new Span(n.span().getStart() - from, n.span().getEnd() - from, TYPE);
                    windowSpans.add(shifted);
                    windowGold.add(new GoldName(shifted, n.locale(), n.script()));
                }
            }
            String[] window = Arrays.copyOfRange(tokens, from, to);
            samples.add(new NameSample(window, windowSpans.toArray(new Span[0]), clear));
            gold.add(windowGold);
            clear = false;
            from = to;
        }
    }

    private static int tokenStarting(Span[] tokens, int charStart) {
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i].getStart() == charStart) {
                return i;
            }
            if (tokens[i].getStart() > charStart) {
                break;
            }
        }
        return -1;
    }

    private static int tokenEnding(Span[] tokens, int charEnd) {
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i].getEnd() == charEnd) {
                return i;
            }
            if (tokens[i].getEnd() > charEnd) {
                break;
            }
        }
        return -1;
    }

    private static String applyCase(String s, CaseMode mode, boolean isName) {
        return switch (mode) {
            case LOWER -> lower(s);
            case UPPER -> s.toUpperCase(Locale.ROOT);
            case NAMES_LOWER -> isName ? lower(s) : s;
            case NORMAL, SURNAME_UPPER -> s;
        };
    }

    /** Lower case without the combining dot that Locale.ROOT leaves after a lowered Turkish İ. */
    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT).replace("i\u0307", "i");
    }

    // ------------------------------------------------------------------ people

    private static LocaleSpec spec(String tag) {
        return LOCALES.stream().filter(l -> l.tag().equals(tag)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown locale " + tag));
    }

    private LocaleSpec pickLocale() {
        double x = rnd.nextDouble();
        for (int i = 0; i < cumulativeWeights.length; i++) {
            if (x < cumulativeWeights[i]) {
                return locales.get(i);
            }
        }
        return locales.get(locales.size() - 1);
    }

    enum Form { FULL, GIVEN, FAMILY, FAMILY_COMMA_GIVEN, FAMILY_GIVEN, INITIAL_FAMILY, GIVEN_INITIAL }

    /** A generated person: name parts plus the non-name strings derived from them. */
    record Person(String locale, String script, String given, String middle, String family,
                  boolean familyFirst, String joiner, String title, String email, String login,
                  boolean dotInitials) {

        boolean cased() {
            return script.equals("LATIN") || script.equals("CYRILLIC") || script.equals("GREEK")
                || script.equals("ARMENIAN");
        }

        String render(Form form, boolean surnameUpper) {
            String fam = surnameUpper ? family.toUpperCase(Locale.ROOT) : family;
            String dot = dotInitials ? "." : "";
            return switch (form) {
                case GIVEN -> given;
                case FAMILY -> fam;
                case FULL -> familyFirst
                    ? fam + joiner + given + (middle == null ? "" : " " + middle)
                    : given + (middle == null ? "" : " " + middle) + " " + fam;
                case FAMILY_GIVEN -> fam + joiner + given;
                case FAMILY_COMMA_GIVEN -> cased() ? fam + ", " + given : render(Form.FULL, surnameUpper);
                case INITIAL_FAMILY -> cased() ? initial(given) + dot + " " + fam : render(Form.FULL, surnameUpper);
                case GIVEN_INITIAL -> cased() ? given + " " + initial(family) + dot : render(Form.FULL, surnameUpper);
            };
        }

        private static String initial(String s) {
            return new String(Character.toChars(Character.toUpperCase(s.codePointAt(0))));
        }
    }

    private Person newPerson(LocaleSpec spec) {
        Faker f = fakers.get(spec.tag());
        boolean female = rnd.nextBoolean();
        String given;
        String family;
        String middle = null;
        switch (spec.keys()) {
            case GENDERED, GENDERED_PATRONYMIC -> {
                String g = female ? "female" : "male";
                given = f.resolve("name." + g + "_first_name");
                family = f.resolve("name." + g + "_last_name");
                if (spec.keys() == NameKeys.GENDERED_PATRONYMIC && rnd.nextDouble() < 0.3) {
                    middle = f.resolve("name." + g + "_middle_name");
                }
            }
            case CZECH -> {
                String g = female ? "woman" : "man";
                given = f.resolve("name." + g + "_first_name");
                family = f.resolve("name." + g + "_last_name");
            }
            case GIVEN_ONLY -> {
                given = f.name().firstName();
                family = f.name().firstName();
            }
            case HAND_WRITTEN -> {
                String[] gf = PersonNameLists.person(spec.tag(), female, rnd);
                given = gf[0];
                family = gf[1];
            }
            default -> {
                given = f.name().firstName();
                family = f.name().lastName();
            }
        }
        String script = scriptOf(given + family);
        boolean latin = script.equals("LATIN");
        // Name shapes Datafaker rarely produces on its own: particles, double-barrelled surnames,
        // compound given names, middle initials.
        if (latin) {
            family = decorateFamily(spec.lang(), family, f);
            if ((spec.lang().equals("fr") || spec.lang().equals("de")) && rnd.nextDouble() < 0.08) {
                given = given + "-" + f.name().firstName();
            }
            if (spec.lang().equals("en") && middle == null && rnd.nextDouble() < 0.12) {
                middle = rnd.nextBoolean()
                    ? f.name().firstName().substring(0, 1) + "."
                    : f.name().firstName();
            }
        }
        boolean familyFirst = spec.familyFirst()
            || (script.equals("CYRILLIC") && rnd.nextDouble() < 0.35); // "Иванов Иван Иванович"
        String joiner = spec.joiner();
        if (spec.tag().equals("ja") && rnd.nextDouble() < 0.3) {
            joiner = "";
        }
        String title = rnd.nextDouble() < 0.35 ? f.name().prefix() : pick(titlesFor(spec.lang()));
        String[] mail = mailIdentity(given, family);
        return new Person(spec.tag(), script, given, middle, family, familyFirst, joiner, title,
            mail[0], mail[1], rnd.nextDouble() < 0.8);
    }

    private String decorateFamily(String lang, String family, Faker f) {
        double x = rnd.nextDouble();
        return switch (lang) {
            case "nl" -> x < 0.2 ? pick("van", "van der", "van den", "de", "ter", "van de", "van 't") + " " + family : family;
            case "de" -> x < 0.05 ? "von " + family : x < 0.11 ? family + "-" + f.name().lastName() : family;
            case "fr" -> x < 0.08 ? pick("de", "du", "de la", "Le", "Da") + " " + family
                : x < 0.16 ? family + "-" + f.name().lastName() : family;
            case "es" -> x < 0.40 ? family + " " + f.name().lastName()
                : x < 0.48 ? pick("de la", "del", "de") + " " + family
                : x < 0.52 ? family + " y " + f.name().lastName() : family;
            case "pt" -> x < 0.25 ? pick("da", "dos", "de", "das") + " " + family
                : x < 0.40 ? family + " " + f.name().lastName() : family;
            case "it" -> x < 0.04 ? pick("Di", "De", "Lo", "La", "Del") + " " + family
                : x < 0.07 ? "D'" + family : family;
            case "en" -> x < 0.03 ? pick("O'", "Mc", "Mac") + family
                : x < 0.07 ? family + "-" + f.name().lastName() : family;
            case "sv", "nb", "da", "pl", "hr", "sk" -> x < 0.05 ? family + "-" + f.name().lastName() : family;
            default -> family;
        };
    }

    private static final Map<String, String[]> TITLES = Map.ofEntries(
        Map.entry("en", new String[] {"Mr.", "Mrs.", "Ms.", "Miss", "Dr.", "Prof.", "Mr", "Ms", "Dr", "Mx."}),
        Map.entry("fr", new String[] {"M.", "Mme", "Mlle", "Dr", "Me", "Pr"}),
        Map.entry("de", new String[] {"Herr", "Frau", "Dr.", "Prof. Dr."}),
        Map.entry("es", new String[] {"Sr.", "Sra.", "Srta.", "Dr.", "Dra.", "Don", "Doña"}),
        Map.entry("it", new String[] {"Sig.", "Sig.ra", "Dott.", "Dott.ssa", "Ing.", "Avv."}),
        Map.entry("pt", new String[] {"Sr.", "Sra.", "Dr.", "Dra."}),
        Map.entry("nl", new String[] {"dhr.", "mevr.", "Dr."}),
        Map.entry("pl", new String[] {"Pan", "Pani", "dr"}),
        Map.entry("tr", new String[] {"Bay", "Bayan", "Dr."}),
        Map.entry("ru", new String[] {"г-н", "г-жа", "Dr."}),
        Map.entry("bg", new String[] {"г-н", "г-жа", "Dr."}));

    private static String[] titlesFor(String lang) {
        return TITLES.getOrDefault(lang, TITLES.get("en"));
    }

    private static final String[] MAIL_DOMAINS = {
        "example.com", "example.org", "mail.example.net", "acme.io", "corp.example", "globex.com",
        "initech.co.uk", "contoso.fr", "gmail.com", "outlook.com", "yahoo.co.jp", "web.de", "posteo.de",
        "mail.ru", "163.com", "naver.com", "proton.me", "uni-example.edu"};

    /** {email, login}. Local parts derive from the name when it folds to ASCII, as real ones do. */
    private String[] mailIdentity(String given, String family) {
        String g = fold(given);
        String fam = fold(family);
        String local;
        if (g.isEmpty() || fam.isEmpty()) {
            local = pick("user", "contact", "office", "info", "u", "id") + (100 + rnd.nextInt(9900));
        } else {
            local = switch (rnd.nextInt(7)) {
                case 0, 1 -> g + "." + fam;
                case 2 -> g.charAt(0) + fam;
                case 3 -> g + "_" + fam;
                case 4 -> g + fam.charAt(0);
                case 5 -> fam + "." + g;
                default -> g + "." + fam + (1 + rnd.nextInt(99));
            };
        }
        String login = rnd.nextDouble() < 0.7 ? local : local.replace('.', '_');
        return new String[] {local + "@" + pick(MAIL_DOMAINS), login};
    }

    /** ASCII letters of a name, lower-cased ("Łukasz Żółć" -> "ukaszzoc"-like); empty for non-Latin. */
    static String fold(String s) {
        String d = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "")
            // letters NFD does not decompose
            .replace("ł", "l").replace("Ł", "L").replace("ø", "o").replace("Ø", "O").replace("đ", "d")
            .replace("Đ", "D").replace("ß", "ss").replace("æ", "ae").replace("Æ", "AE").replace("ı", "i")
            .replace("œ", "oe").replace("Œ", "OE");
        StringBuilder b = new StringBuilder();
        for (char c : d.toLowerCase(Locale.ROOT).toCharArray()) {
            if (c >= 'a' && c <= 'z') {
                b.append(c);
            } else if (c > 127 && Character.isLetter(c)) {
                return ""; // non-Latin script: no romanisation attempted
            }
        }
        return b.toString();
    }

    static String scriptOf(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (Character.isLetter(cp)) {
                Character.UnicodeScript us = Character.UnicodeScript.of(cp);
                return switch (us) {
                    case HAN, HIRAGANA, KATAKANA -> "HAN";
                    default -> us.name();
                };
            }
            i += Character.charCount(cp);
        }
        return "UNKNOWN";
    }

    private String pick(String... values) {
        return values[rnd.nextInt(values.length)];
    }
}
