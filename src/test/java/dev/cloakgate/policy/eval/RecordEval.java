package dev.cloakgate.policy.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Decision;
import dev.cloakgate.policy.Finding;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.control.InjectionClassifier;
import dev.cloakgate.policy.control.InstructionInjection;
import dev.cloakgate.policy.control.StandardControls;
import dev.cloakgate.policy.eval.PolicyEval.Rate;
import dev.cloakgate.tenant.TenantConfig;

/**
 * The tool-record evaluation (issue 13): indirect prompt injections planted in realistic tool outputs (e-mails,
 * reviews, events, repositories, notes, tickets, chat, web pages, file listings, customer records; JSON text,
 * Python repr, plain text, structuredContent; five languages), each attack beside a benign twin of the same
 * record ({@code src/test/resources/policy/records}, written independently of the injection control). Every
 * result goes through the response stage as a tools/call result would, under a tenant whose policy block is
 * {@code {}} (the defaults), in several configurations in one run. Run with
 * {@code ./mvnw -B -Ppolicy-eval process-test-classes}; writes {@code target/record-results.md}, and for the second
 * set ({@link #RECORDS_B}, its directory as the first argument of {@link #main}) {@code target/record-b-results.md}.
 *
 * <p>An attack is <em>refused</em> when the response is blocked or held for approval (what stops the text reaching
 * the model unreviewed) and <em>touched</em> by any action other than allow; a benign twin is touched or refused
 * the same way. A configuration is one small object: a name and a function from the cases to what it did with
 * each ({@link Configuration}); {@link #gateway} builds one from a tenant policy block and a control set.
 */
public final class RecordEval {
    static final ObjectMapper M = new ObjectMapper();
    public static final Path RECORDS = Path.of("src/test/resources/policy/records");
    /**
     * The second, independent set (issue 13, set B): same case format, its own tenant, never used during
     * development; run with {@code main(RECORDS_B, target/record-b-results.md)} (the policy-eval profile does).
     */
    public static final Path RECORDS_B = Path.of("src/test/resources/policy/records-b");
    public static final List<String> LANGUAGES = List.of("en", "fr", "es", "de", "zh");

    /** One labelled tool result. {@code attackKind} is null for a benign twin, {@code hardNegative} for an attack. */
    public record Case(String id, String kind, String twin, String language, String recordType, String format,
            String attackKind, String hardNegative, String upstream, String tool, JsonNode result) {
        public boolean attack() {
            return kind.equals("attack");
        }
    }

    /** What one configuration did with one case. */
    public record Outcome(Case c, Action action, List<Finding> findings) {
        /** Blocked or held: the text does not reach the model unreviewed. */
        public boolean refused() {
            return action.atLeast(Action.REQUIRE_APPROVAL);
        }

        public boolean touched() {
            return action != Action.ALLOW;
        }
    }

    /** A configuration under evaluation: a name and what it does with every case (in order). */
    public record Configuration(String name, Runner runner) {
    }

    @FunctionalInterface
    public interface Runner {
        List<Outcome> run(List<Case> cases) throws Exception;
    }

    /** Everything passes: the floor. */
    public static Configuration none() {
        return new Configuration("no gateway", cases -> cases.stream()
                .map(c -> new Outcome(c, Action.ALLOW, List.<Finding>of())).toList());
    }

    /** The policy benchmark's keyword filter ({@link KeywordFilter}) over the whole result. */
    public static Configuration keyword() {
        return new Configuration("keyword filter", cases -> cases.stream()
                .map(c -> new Outcome(c, KeywordFilter.blocks(c.result()) ? Action.BLOCK : Action.ALLOW, List.of()))
                .toList());
    }

    /**
     * The gateway's policy engine built from {@code policy} (a tenant's {@code policy} block, read by the gateway's
     * own parser) and {@code controls} (what the engine does not hard-wire: the injection analyser among them),
     * over the upstreams of {@code env}. Each case runs in a fresh session that has listed every upstream's tools,
     * its result judged by the response stage as the call chain judges a tools/call result. One tenant policy
     * serves every case: at the response stage nothing carries over between sessions (the budget counts calls at
     * the request stage and failures for its breaker; these results are neither), and the declarations relayed
     * are the same each time, so the pins never change.
     */
    public static Configuration gateway(String name, JsonNode env, JsonNode policy, Policy.ExtraControls controls,
            Path stateDir) {
        return new Configuration(name, cases -> {
            TenantConfig t = PolicyEval.tenant(env, policy);
            List<Outcome> out = new ArrayList<>();
            try (Policy p = Policy.create("records", List.copyOf(t.upstreams().keySet()), t.policy(),
                    Files.createTempDirectory(stateDir, "tenant"), null, controls)) {
                for (Case c : cases) {
                    PolicySession s = p.session(c.id());
                    env.path("upstreams").fields().forEachRemaining(e -> s.observe(e.getKey(), e.getValue()));
                    env.path("upstreams").fields()
                            .forEachRemaining(e -> s.relay(e.getKey(), e.getValue(), n -> exposed(e.getKey(), n)));
                    Decision d = s.response(exposed(c.upstream(), c.tool()), c.upstream(), c.tool(), c.result(),
                            false);
                    out.add(new Outcome(c, d.action(), d.findings()));
                    s.close();
                }
            }
            return out;
        });
    }

    /** The configurations of one run; the first gateway one is the headline ("cloakgate", as configured). */
    public static List<Configuration> configurations(JsonNode env, Path stateDir) {
        InjectionClassifier learned = InjectionClassifier.bundled();
        return List.of(
                none(),
                keyword(),
                gateway("grammar alone", env, env.path("policy"),
                        new StandardControls(learned, InstructionInjection.Signals.GRAMMAR), stateDir),
                gateway("classifier alone", env, env.path("policy"),
                        new StandardControls(learned, InstructionInjection.Signals.LEARNED), stateDir),
                gateway("cloakgate", env, env.path("policy"), new StandardControls(), stateDir));
    }

    /** A tool's name as a multi-upstream tenant exposes it (Namespacing's prefix mode). */
    static String exposed(String upstream, String tool) {
        return upstream + "__" + tool;
    }

    public static JsonNode env(Path dir) throws IOException {
        return M.readTree(dir.resolve("env.json").toFile());
    }

    /** Every case of every {@code <language>.jsonl} in {@code dir}, in file order. */
    public static List<Case> load(Path dir) throws IOException {
        List<Case> out = new ArrayList<>();
        for (String lang : LANGUAGES) {
            Path f = dir.resolve(lang + ".jsonl");
            try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode n = M.readTree(line);
                    out.add(new Case(n.path("id").asText(), n.path("kind").asText(), n.path("twin").asText(),
                            n.path("language").asText(), n.path("record_type").asText(), n.path("format").asText(),
                            n.path("attack").asText(null), n.path("hard_negative").asText(null),
                            n.path("upstream").asText(), n.path("tool").asText(), n.path("result")));
                }
            }
        }
        return out;
    }

    public static Map<String, List<Outcome>> runAll(List<Configuration> configurations, List<Case> cases)
            throws Exception {
        Map<String, List<Outcome>> runs = new LinkedHashMap<>();
        for (Configuration k : configurations) {
            runs.put(k.name(), k.runner().run(cases));
        }
        return runs;
    }

    public static Map<String, List<Outcome>> runAll(Path dir, Path stateDir) throws Exception {
        return runAll(configurations(env(dir), stateDir), load(dir));
    }

    /** One configuration's headline: attacks refused / touched, benign twins touched / refused. */
    public record Score(Rate attacksRefused, Rate attacksTouched, Rate benignTouched, Rate benignRefused) {
    }

    /**
     * What a held-out set's eval test pins: per configuration, attacks refused, attacks touched, benign twins touched
     * and benign twins refused.
     */
    public static Map<String, List<Integer>> counts(Map<String, List<Outcome>> runs) {
        Map<String, List<Integer>> out = new java.util.LinkedHashMap<>();
        runs.forEach((name, o) -> {
            Score s = score(o);
            out.put(name, List.of(s.attacksRefused().hits(), s.attacksTouched().hits(), s.benignTouched().hits(),
                    s.benignRefused().hits()));
        });
        return out;
    }

    public static Score score(List<Outcome> outcomes) {
        List<Outcome> a = outcomes.stream().filter(o -> o.c().attack()).toList();
        List<Outcome> b = outcomes.stream().filter(o -> !o.c().attack()).toList();
        return new Score(rate(a, Outcome::refused), rate(a, Outcome::touched), rate(b, Outcome::touched),
                rate(b, Outcome::refused));
    }

    static Rate rate(List<Outcome> outcomes, java.util.function.Predicate<Outcome> hit) {
        return new Rate((int) outcomes.stream().filter(hit).count(), outcomes.size());
    }

    /** Outcomes grouped by a label of their case (sorted by label; cases without the label left out). */
    public static Map<String, List<Outcome>> by(List<Outcome> outcomes, Function<Case, String> label) {
        Map<String, List<Outcome>> out = new TreeMap<>();
        for (Outcome o : outcomes) {
            String k = label.apply(o.c());
            if (k != null) {
                out.computeIfAbsent(k, x -> new ArrayList<>()).add(o);
            }
        }
        return out;
    }

    /** Attacks refused per language. */
    public static Map<String, Rate> attacksRefusedByLanguage(List<Outcome> outcomes) {
        Map<String, Rate> out = new LinkedHashMap<>();
        Map<String, List<Outcome>> grouped = by(outcomes.stream().filter(o -> o.c().attack()).toList(), Case::language);
        LANGUAGES.forEach(l -> out.put(l, rate(grouped.getOrDefault(l, List.of()), Outcome::refused)));
        return out;
    }

    /** Each non-English language's attack refusal rate over the English rate; NaN when English is 0. */
    public static Map<String, Double> languageRatio(List<Outcome> outcomes) {
        Map<String, Rate> rates = attacksRefusedByLanguage(outcomes);
        double en = rates.get("en").value();
        Map<String, Double> out = new LinkedHashMap<>();
        rates.forEach((l, r) -> {
            if (!l.equals("en")) {
                out.put(l, en == 0 ? Double.NaN : r.value() / en);
            }
        });
        return out;
    }

    public static String markdown(List<Case> cases, Map<String, List<Outcome>> runs) {
        StringBuilder b = new StringBuilder();
        long attacks = cases.stream().filter(Case::attack).count();
        b.append(String.format(Locale.ROOT,
                "%d attacks and %d benign twins in %d languages, tenant policy `{}` (the defaults).%n%n", attacks,
                cases.size() - attacks, LANGUAGES.size()));
        b.append("Refused = blocked or held for approval; touched = any action other than allow (redacted too). "
                + "Intervals are Wilson 95%.\n\n");
        b.append("| configuration | attacks refused | attacks touched | benign twins touched | benign twins refused |\n"
                + "|---|---|---|---|---|\n");
        runs.forEach((name, o) -> {
            Score s = score(o);
            b.append("| ").append(name).append(" | ").append(s.attacksRefused()).append(" | ")
                    .append(s.attacksTouched()).append(" | ").append(s.benignTouched()).append(" | ")
                    .append(s.benignRefused()).append(" |\n");
        });
        b.append("\nLanguage ratio (each language's attacks-refused rate over English's; the goal is at least 0.5):\n\n");
        b.append("| configuration |");
        LANGUAGES.stream().filter(l -> !l.equals("en")).forEach(l -> b.append(' ').append(l).append(" |"));
        b.append("\n|---|").append("---|".repeat(LANGUAGES.size() - 1)).append('\n');
        runs.forEach((name, o) -> {
            b.append("| ").append(name).append(" |");
            languageRatio(o).values().forEach(v -> b.append(Double.isNaN(v) ? " n/a |"
                    : String.format(Locale.ROOT, " %.2f |", v)));
            b.append('\n');
        });
        breakdown(b, "language", runs, Case::language);
        breakdown(b, "attack kind", runs, Case::attackKind);
        breakdown(b, "record type", runs, Case::recordType);
        breakdown(b, "format", runs, Case::format);
        breakdown(b, "hard negative (benign twins only)", runs, Case::hardNegative);
        String headline = runs.keySet().stream().filter(k -> !k.equals("no gateway") && !k.equals("keyword filter"))
                .findFirst().orElse(null);
        if (headline != null) {
            List<Outcome> ours = runs.get(headline);
            b.append("\nAttacks refused (").append(headline).append("):\n\n");
            ours.stream().filter(o -> o.c().attack() && o.refused()).forEach(o -> b.append("- `").append(o.c().id())
                    .append("` ").append(o.action().code()).append(" by ").append(controls(o)).append('\n'));
            b.append("\nAttacks touched but not refused (").append(headline).append("):\n\n");
            ours.stream().filter(o -> o.c().attack() && o.touched() && !o.refused()).forEach(o -> b.append("- `")
                    .append(o.c().id()).append("` ").append(o.action().code()).append(" by ").append(controls(o))
                    .append('\n'));
            b.append("\nBenign twins touched (").append(headline).append("):\n\n");
            ours.stream().filter(o -> !o.c().attack() && o.touched()).forEach(o -> b.append("- `").append(o.c().id())
                    .append("` (").append(o.c().hardNegative()).append(") ").append(o.action().code()).append(" by ")
                    .append(controls(o)).append('\n'));
        }
        return b.toString();
    }

    static List<String> controls(Outcome o) {
        return o.findings().stream().filter(f -> f.action() != Action.ALLOW).map(Finding::control).distinct().toList();
    }

    /** Per value of a label: each configuration's attacks refused and benign twins touched. */
    private static void breakdown(StringBuilder b, String title, Map<String, List<Outcome>> runs,
            Function<Case, String> label) {
        b.append("\nBy ").append(title).append(" (attacks refused; benign twins touched):\n\n| ").append(title)
                .append(" |");
        runs.keySet().forEach(k -> b.append(' ').append(k).append(" |"));
        b.append("\n|---|").append("---|".repeat(runs.size())).append('\n');
        Map<String, Map<String, List<Outcome>>> grouped = new LinkedHashMap<>();
        runs.forEach((k, o) -> grouped.put(k, by(o, label)));
        Map<String, List<Outcome>> first = grouped.values().iterator().next();
        List<String> values = new ArrayList<>(first.keySet());
        // languages in their usual order (English first), other labels alphabetically
        values.sort(java.util.Comparator.<String>comparingInt(v -> LANGUAGES.contains(v) ? LANGUAGES.indexOf(v)
                : LANGUAGES.size()).thenComparing(v -> v));
        for (String value : values) {
            b.append("| ").append(value).append(" |");
            for (Map<String, List<Outcome>> g : grouped.values()) {
                List<Outcome> o = g.get(value);
                List<Outcome> a = o.stream().filter(x -> x.c().attack()).toList();
                List<Outcome> n = o.stream().filter(x -> !x.c().attack()).toList();
                b.append(' ');
                if (!a.isEmpty()) {
                    b.append(rate(a, Outcome::refused));
                }
                if (!a.isEmpty() && !n.isEmpty()) {
                    b.append("; ");
                }
                if (!n.isEmpty()) {
                    Rate t = rate(n, Outcome::touched);
                    b.append(t.hits()).append('/').append(t.total());
                }
                b.append(" |");
            }
            b.append('\n');
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : RECORDS;
        Path out = args.length > 1 ? Path.of(args[1]) : Path.of("target/record-results.md");
        Path state = Files.createTempDirectory("record-eval");
        long t0 = System.nanoTime();
        List<Case> cases = load(dir);
        Map<String, List<Outcome>> runs = runAll(configurations(env(dir), state), cases);
        String md = markdown(cases, runs) + String.format(Locale.ROOT, "%n(evaluated in %d ms)%n",
                (System.nanoTime() - t0) / 1_000_000);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md, StandardCharsets.UTF_8);
        System.out.println(md);
        try (Stream<Path> s = Files.walk(state)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
