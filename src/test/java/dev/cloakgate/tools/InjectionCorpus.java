package dev.cloakgate.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cloakgate.tools.InjectionCorpusTemplates.Lang;

/**
 * The data of the injection classifier ({@link TrainInjectionModel}): the public part read from
 * {@code public.tsv} (made by {@code extract_injection_data.py} from public repositories; it is kept in the
 * steering repository's {@code shared/injection/}, not in this one; README.md beside this class lists its
 * sources and licences) and the project-written part rendered from {@link InjectionCorpusTemplates} with fixed
 * seeds, in a fixed order.
 *
 * <h2>Splits</h2>
 * By family and source, never by random sentence. A template's split is fixed by its index
 * ({@link #split(int, int)}): an injection is held out when its action, its frame or its preamble is, so the
 * held-out injections use verbs, phrasings and preambles training never saw in that language. The index is
 * offset by the language's position, so a concept held out in one language ("grant access") is trained in
 * the others and the shipped model is not blind to it everywhere. Public text is split by file (a
 * documentation page, a recipe category); the two long single-file lists (the jailbreak prompt list, a commit
 * log) by entry; PayloadsAllTheThings is held out whole (a source the model never sees).
 */
final class InjectionCorpus {

    enum Split { TRAIN, VALIDATION, HELDOUT }

    record Example(String text, boolean injection, String source, String lang, String family, Split split) {}

    /** Sources held out whole. */
    static final Set<String> HELDOUT_SOURCES = Set.of("patt");
    private static final Pattern SLOT = Pattern.compile("\\{([a-z_]+)\\}");

    /** Injections and benign texts rendered per language and split. */
    record Sizes(int positives, int negatives) {}

    static final Map<Split, Sizes> FULL = Map.of(Split.TRAIN, new Sizes(2400, 2400), Split.VALIDATION, new Sizes(400, 600),
            Split.HELDOUT, new Sizes(400, 600));

    private InjectionCorpus() {
    }

    /** Every example, public first (none when {@code publicData} is null) then synthetic, each in a fixed order. */
    static List<Example> build(long seed, Map<Split, Sizes> sizes, Path publicData) {
        List<Example> out = new ArrayList<>(publicData == null ? List.of() : publicExamples(publicData));
        List<Lang> langs = InjectionCorpusTemplates.all();
        for (int l = 0; l < langs.size(); l++) {
            Lang lang = langs.get(l);
            for (Split split : Split.values()) {
                Random random = new Random(seed ^ (lang.code().hashCode() * 31L + split.ordinal()));
                out.addAll(synthetic(lang, l, split, sizes.get(split), random));
            }
        }
        return out;
    }

    /**
     * The split of the {@code index}-th template of a list, cycling every {@code period}: one in each period is
     * held out, one is validation.
     */
    static Split split(int index, int period) {
        int r = index % period;
        return r == 1 ? Split.HELDOUT : r == period - 1 ? Split.VALIDATION : Split.TRAIN;
    }

    private static Split worst(Split... splits) {
        Split w = Split.TRAIN;
        for (Split s : splits) {
            if (s == Split.HELDOUT || (s == Split.VALIDATION && w == Split.TRAIN)) {
                w = s;
            }
        }
        return w;
    }

    // ---------------------------------------------------------------------------------------- public data

    static List<Example> publicExamples(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("the public training data " + file + " is missing: it is kept in the steering "
                    + "repository's shared/injection/public.tsv (pass another path with -Dinjection.data=...), or make it with "
                    + "src/test/java/dev/cloakgate/tools/extract_injection_data.py from the snapshots README.md names");
        }
        List<String[]> rows = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isEmpty()) {
                    rows.add(line.split("\t", 5));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Integer> familySize = new LinkedHashMap<>();
        for (String[] row : rows) {
            familySize.merge(row[3], 1, Integer::sum);
        }
        Map<String, Integer> seen = new LinkedHashMap<>();
        List<Example> out = new ArrayList<>();
        for (String[] row : rows) {
            String family = row[3];
            int index = seen.merge(family, 1, Integer::sum) - 1;
            Split split = HELDOUT_SOURCES.contains(row[1]) ? Split.HELDOUT
                    : familySize.get(family) >= 100 ? split(index, 6)
                    : split(Math.floorMod(family.hashCode(), 6), 6);
            out.add(new Example(unescape(row[4]), row[0].equals("1"), row[1], row[2], family, split));
        }
        return out;
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    // ---------------------------------------------------------------------------------------- synthetic

    private static List<Example> synthetic(Lang lang, int offset, Split split, Sizes sizes, Random random) {
        List<Example> out = new ArrayList<>();
        Set<String> texts = new LinkedHashSet<>();
        List<Integer> negatives = indices(lang.negatives().size(), offset, 6, split);
        for (int attempts = 0; out.size() < sizes.positives() && attempts < sizes.positives() * 50; attempts++) {
            int a = random.nextInt(lang.actions().size());
            int f = random.nextInt(lang.frames().size());
            int p = random.nextInt(2 * lang.preambles().size());
            boolean preamble = p < lang.preambles().size();
            Split s = worst(split(a + offset, 6), split(f + offset, 5), preamble ? split(p + offset, 6) : Split.TRAIN);
            if (s != split) {
                continue;
            }
            String text = frame(lang, lang.frames().get(f), lang.actions().get(a), random);
            if (preamble) {
                text = fill(lang, lang.preambles().get(p), random) + sep(lang) + text;
            }
            if (random.nextInt(100) < 35) {
                text = embed(lang, text, negatives, random);
            }
            text = wrap(text, random);
            if (texts.add(text)) {
                out.add(new Example(text, true, "synthetic", lang.code(), lang.code() + ":action" + a, split));
            }
        }
        for (int attempts = 0; out.size() < sizes.positives() + sizes.negatives() && attempts < sizes.negatives() * 50; attempts++) {
            if (random.nextBoolean()) {
                // a courtesy request to the person reading (bring, review, call back), in the same frames as the
                // injections, so the frame alone ("Please", "Can you", "TODO:") is not what the model learns
                int r = random.nextInt(lang.requests().size());
                int f = random.nextInt(lang.frames().size());
                String frame = lang.frames().get(f);
                if (addressesTheModel(frame) || worst(split(r + offset, 6), split(f + offset, 5)) != split) {
                    continue;
                }
                String text = wrap(frame(lang, frame, lang.requests().get(r), random), random);
                if (texts.add(text)) {
                    out.add(new Example(text, false, "synthetic", lang.code(), lang.code() + ":request" + r, split));
                }
                continue;
            }
            int t = negatives.get(random.nextInt(negatives.size()));
            String text = fill(lang, lang.negatives().get(t), random);
            int more = random.nextInt(100) < 40 ? 1 + random.nextInt(2) : 0;
            for (int k = 0; k < more; k++) {
                text = text + sep(lang) + fill(lang, lang.negatives().get(negatives.get(random.nextInt(negatives.size()))), random);
            }
            text = wrap(text, random);
            if (texts.add(text)) {
                out.add(new Example(text, false, "synthetic", lang.code(), lang.code() + ":benign" + t, split));
            }
        }
        return out;
    }

    /** Frames that speak to an AI or demand unconfirmed action: never used for benign requests. */
    private static final List<String> MODEL_ADDRESS = List.of("ssistant", "task", "tâche", "tarea", "Aufgabe", "任务", "助手",
            "confirm", "Rückfrage", "确认", "ction", "Handlungsbedarf", "需要处理", "impératif", "imprescindible", "zwingend",
            "essential", "Without", "Sans demander", "Sin pedir", "immediately", "immédiatement", "inmediatamente", "sofort", "马上",
            "must", "dois", "devez", "Debes", "müssen", "必须");

    private static boolean addressesTheModel(String frame) {
        return MODEL_ADDRESS.stream().anyMatch(frame::contains);
    }

    private static List<Integer> indices(int size, int offset, int period, Split split) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (split(i + offset, period) == split) {
                out.add(i);
            }
        }
        return out;
    }

    /** Puts an injection inside a benign record of the same split: a review or e-mail with the request in it. */
    private static String embed(Lang lang, String injection, List<Integer> negatives, Random random) {
        String context = fill(lang, lang.negatives().get(negatives.get(random.nextInt(negatives.size()))), random);
        return switch (random.nextInt(3)) {
            case 0 -> context + sep(lang) + injection;
            case 1 -> injection + sep(lang) + context;
            default -> context + sep(lang) + injection + sep(lang)
                    + fill(lang, lang.negatives().get(negatives.get(random.nextInt(negatives.size()))), random);
        };
    }

    /** The shapes a tool prints a field in; the same for both classes, so a wrapper says nothing by itself. */
    private static String wrap(String text, Random random) {
        int r = random.nextInt(100);
        if (r < 70) {
            return text;
        }
        if (r < 78) {
            return "{\"content\": \"" + text.replace("\"", "\\\"") + "\"}";
        }
        if (r < 86) {
            return "{'name': 'Mark', 'rating': 4, 'content': '" + text.replace("'", "\\'") + "'}";
        }
        if (r < 93) {
            return "Subject: Re: your order\n\n" + text;
        }
        return "- " + text;
    }

    private static String sep(Lang lang) {
        return lang.code().equals("zh") ? "" : " ";
    }

    private static String frame(Lang lang, String frame, String action, Random random) {
        String text;
        if (lang.code().equals("de")) {
            String[] parts = action.split("\\|");
            text = frame.replace("{O}", parts[0]).replace("{V}", parts[1]).replace("{I}", parts[2])
                    .replace("{i}", Character.toLowerCase(parts[2].charAt(0)) + parts[2].substring(1));
        } else {
            text = frame.replace("{A}", Character.toUpperCase(action.charAt(0)) + action.substring(1)).replace("{a}", action);
        }
        text = fill(lang, text, random);
        return random.nextInt(100) < 8 ? text.toUpperCase(Locale.ROOT) : text;
    }

    private static String fill(Lang lang, String template, Random random) {
        Matcher m = SLOT.matcher(template);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            List<String> values = lang.values().get(m.group(1));
            if (values == null) {
                throw new IllegalStateException("no values for slot " + m.group(1) + " in " + lang.code());
            }
            m.appendReplacement(b, Matcher.quoteReplacement(values.get(random.nextInt(values.size()))));
        }
        m.appendTail(b);
        return b.toString();
    }
}
