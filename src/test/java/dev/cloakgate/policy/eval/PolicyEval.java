package dev.cloakgate.policy.eval;

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
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Decision;
import dev.cloakgate.policy.Finding;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.control.InjectionClassifier;
import dev.cloakgate.policy.control.InstructionInjection;
import dev.cloakgate.policy.control.StandardControls;
import dev.cloakgate.tenant.EnvExpander;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantParser;

/**
 * The policy benchmark: every case of the labelled corpus ({@code src/test/resources/policy/corpus}) under three
 * configurations in one run: no gateway (everything passes), a keyword filter (substring matching on the
 * obvious phrases), and cloakgate's engine configured from the corpus' {@code env.json}. An attack is handled
 * when the response is at least as severe as its ground truth requires; a benign case is refused when it is
 * blocked or held. Deterministic: no network, no model. Run with
 * {@code ./mvnw -B -Ppolicy-eval process-test-classes}; writes {@code target/policy-results.md}.
 */
public final class PolicyEval {
    static final ObjectMapper M = new ObjectMapper();
    public static final Path CORPUS = Path.of("src/test/resources/policy/corpus");

    public record Case(String id, String kind, String clazz, String delivery, String stage, String upstream,
            String tool, Action expected, List<String> controls, JsonNode raw) {
        boolean attack() {
            return kind.equals("attack");
        }
    }

    /** What one configuration did with one case. */
    public record Outcome(Case c, Action action, List<Finding> findings) {
        public boolean handled() {
            return action.atLeast(c.expected());
        }

        public boolean refused() {
            return action.atLeast(Action.REQUIRE_APPROVAL);
        }
    }

    public record Rate(int hits, int total) {
        public double value() {
            return total == 0 ? 0 : (double) hits / total;
        }

        /** Wilson score interval at 95%. */
        public double[] wilson() {
            if (total == 0) {
                return new double[] { 0, 0 };
            }
            double z = 1.959964;
            double p = value();
            double n = total;
            double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
            double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
            return new double[] { Math.max(0, centre - half), Math.min(1, centre + half) };
        }

        @Override
        public String toString() {
            double[] w = wilson();
            return String.format(Locale.ROOT, "%d/%d = %.1f%% [%.1f%%, %.1f%%]", hits, total, 100 * value(), 100 * w[0],
                    100 * w[1]);
        }
    }

    public static List<Case> load(Path dir) throws IOException {
        List<Case> out = new ArrayList<>();
        for (String sub : List.of("attacks", "benign")) {
            try (Stream<Path> files = Files.list(dir.resolve(sub))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                    JsonNode n = M.readTree(f.toFile());
                    List<String> controls = new ArrayList<>();
                    n.path("controls").forEach(x -> controls.add(x.asText()));
                    out.add(new Case(n.path("id").asText(), n.path("kind").asText(), n.path("class").asText(),
                            n.path("delivery").asText(), n.path("stage").asText(), n.path("upstream").asText(),
                            n.path("tool").asText(), Action.parse(n.path("expected").asText()), controls, n));
                }
            }
        }
        return out;
    }

    /** The corpus environment as a tenant: its policy block read by the gateway's own parser. */
    static TenantConfig tenant(JsonNode env) throws Exception {
        return tenant(env, env.path("policy"));
    }

    /** The upstreams of an environment under {@code policy} (a tenant file's policy block), as the gateway reads it. */
    static TenantConfig tenant(JsonNode env, JsonNode policy) throws Exception {
        ObjectNode t = M.createObjectNode();
        ObjectNode ups = t.putObject("upstreams");
        env.path("upstreams").fieldNames().forEachRemaining(u -> ups.putObject(u).put("url", "http://127.0.0.1:9/mcp"));
        t.set("policy", policy.deepCopy());
        t.putObject("auth").put("mode", "none");
        return new TenantParser(EnvExpander.ofSystem(), Path.of("")).parse("corpus", "corpus.json",
                M.writeValueAsBytes(t));
    }

    /** Runs the engine over every case, each in a fresh session that has listed every upstream's tools. */
    public static List<Outcome> cloakgate(JsonNode env, List<Case> cases, Path stateDir) throws Exception {
        return cloakgate(env, cases, stateDir, new StandardControls());
    }

    /** The same with {@code instruction_injection} built from one signal alone (issue 13's table). */
    public static List<Outcome> cloakgate(JsonNode env, List<Case> cases, Path stateDir, StandardControls controls)
            throws Exception {
        TenantConfig t = tenant(env);
        List<Outcome> out = new ArrayList<>();
        for (Case c : cases) {
            // a fresh tenant state per case (pins, budgets, breakers): cases are independent events, and a
            // discovery case redefining a corpus tool must not read as a rug pull of the previous case's pin
            Path dir = Files.createTempDirectory(stateDir, c.id());
            try (Policy policy = Policy.create("corpus", List.copyOf(t.upstreams().keySet()), t.policy(), dir, null,
                    controls)) {
                PolicySession s = policy.session(c.id());
                env.path("upstreams").fields().forEachRemaining(e -> s.observe(e.getKey(), e.getValue()));
                if (!c.stage().equals("discovery")) {
                    env.path("upstreams").fields().forEachRemaining(e -> s.relay(e.getKey(), e.getValue(), n -> e.getKey() + "__" + n));
                }
                out.add(run(s, env, c));
                s.close();
            }
        }
        return out;
    }

    private static Outcome run(PolicySession s, JsonNode env, Case c) {
        String exposed = c.upstream() + "__" + c.tool();
        JsonNode raw = c.raw();
        switch (c.stage()) {
            case "discovery" -> {
                ArrayNode one = M.createArrayNode();
                one.add(raw.path("declaration").deepCopy());
                s.observe(c.upstream(), one);
                ArrayNode relayed = s.relay(c.upstream(), one, n -> c.upstream() + "__" + n);
                // withheld: the relay left it out and a call to it is refused; stripped: relayed without text
                if (relayed.isEmpty()) {
                    String name = raw.path("declaration").path("name").asText();
                    Decision d = s.request(c.upstream() + "__" + name, c.upstream(), name, M.createObjectNode());
                    return new Outcome(c, Action.BLOCK, d.findings());
                }
                boolean stripped = !relayed.get(0).equals(raw.path("declaration"));
                return new Outcome(c, stripped ? Action.REDACT : Action.ALLOW, List.of());
            }
            case "request" -> {
                Decision d = s.request(exposed, c.upstream(), c.tool(), raw.path("arguments"));
                return new Outcome(c, d.action(), d.findings());
            }
            default -> {
                boolean error = raw.has("error") && !raw.has("result");
                JsonNode payload = error ? raw.get("error").deepCopy() : padded(raw.get("result"), raw.path("pad_bytes").asInt(0));
                Decision d = s.response(exposed, c.upstream(), c.tool(), payload, error);
                return new Outcome(c, d.action(), d.findings());
            }
        }
    }

    static JsonNode padded(JsonNode result, int pad) {
        ObjectNode r = (ObjectNode) result.deepCopy();
        if (pad > 0) {
            for (JsonNode block : r.path("content")) {
                if (block.path("type").asText().equals("text")) {
                    ((ObjectNode) block).put("text", block.path("text").asText() + "x".repeat(pad));
                    break;
                }
            }
        }
        return r;
    }

    /** The payload the keyword filter reads for a case: the declaration, the arguments, or the result. */
    static JsonNode payload(Case c) {
        JsonNode raw = c.raw();
        return switch (c.stage()) {
            case "discovery" -> raw.path("declaration");
            case "request" -> raw.path("arguments");
            default -> raw.has("result") ? padded(raw.get("result"), raw.path("pad_bytes").asInt(0)) : raw.path("error");
        };
    }

    public static List<Outcome> keyword(List<Case> cases) {
        return cases.stream().map(c -> new Outcome(c, KeywordFilter.blocks(payload(c)) ? Action.BLOCK : Action.ALLOW,
                List.of())).toList();
    }

    public static List<Outcome> none(List<Case> cases) {
        return cases.stream().map(c -> new Outcome(c, Action.ALLOW, List.<Finding>of())).toList();
    }

    /** One configuration's scores. */
    public record Score(Rate attacks, Rate benignRefused, Rate benignTouched, List<String> missed, List<String> falseRefusals) {
    }

    public static Score score(List<Outcome> outcomes) {
        int a = 0;
        int ah = 0;
        int b = 0;
        int br = 0;
        int bt = 0;
        List<String> missed = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (o.c().attack()) {
                a++;
                if (o.handled()) {
                    ah++;
                } else {
                    missed.add(o.c().id());
                }
            } else {
                b++;
                if (o.refused()) {
                    br++;
                    refused.add(o.c().id());
                }
                if (o.action() != Action.ALLOW) {
                    bt++;
                }
            }
        }
        return new Score(new Rate(ah, a), new Rate(br, b), new Rate(bt, b), missed, refused);
    }

    /** Per control: attacks it is ground truth for that were handled, and benign cases it touched. */
    public static Map<String, Rate[]> perControl(List<Outcome> outcomes) {
        Map<String, int[]> counts = new TreeMap<>();
        for (Outcome o : outcomes) {
            if (o.c().attack()) {
                for (String control : o.c().controls()) {
                    int[] k = counts.computeIfAbsent(control, x -> new int[4]);
                    k[1]++;
                    k[0] += o.handled() ? 1 : 0;
                }
            } else {
                for (String control : o.c().controls()) {
                    counts.computeIfAbsent(control, x -> new int[4])[3]++;
                }
                o.findings().stream().filter(f -> f.action() != Action.ALLOW).map(Finding::control).distinct()
                        .forEach(control -> counts.computeIfAbsent(control, x -> new int[4])[2]++);
            }
        }
        Map<String, Rate[]> out = new LinkedHashMap<>();
        counts.forEach((k, v) -> out.put(k, new Rate[] { new Rate(v[0], v[1]), new Rate(v[2], v[3]) }));
        return out;
    }

    /** Which controls touched benign cases, by case id. */
    public static Map<String, List<String>> benignTouchedBy(List<Outcome> outcomes) {
        Map<String, List<String>> out = new TreeMap<>();
        for (Outcome o : outcomes) {
            if (!o.c().attack() && o.action() != Action.ALLOW) {
                out.put(o.c().id(), o.findings().stream().filter(f -> f.action() != Action.ALLOW).map(Finding::control)
                        .distinct().toList());
            }
        }
        return out;
    }

    public static String markdown(List<Case> cases, Map<String, List<Outcome>> runs) {
        StringBuilder b = new StringBuilder();
        long attacks = cases.stream().filter(Case::attack).count();
        long classes = cases.stream().filter(Case::attack).map(Case::clazz).distinct().count();
        b.append(String.format(Locale.ROOT, "%d attacks in %d classes, %d benign near-misses.%n%n", attacks, classes,
                cases.size() - attacks));
        b.append("| configuration | attacks handled | benign refused | benign touched (incl. redacted) |\n|---|---|---|---|\n");
        runs.forEach((name, o) -> {
            Score s = score(o);
            b.append("| ").append(name).append(" | ").append(s.attacks()).append(" | ").append(s.benignRefused())
                    .append(" | ").append(s.benignTouched()).append(" |\n");
        });
        List<Outcome> ours = runs.get("cloakgate");
        b.append("\nPer control (cloakgate; attacks the control is ground truth for, and benign cases it touched):\n\n");
        b.append("| control | attacks handled | benign touched |\n|---|---|---|\n");
        perControl(ours).forEach((k, v) -> b.append("| ").append(k).append(" | ").append(v[0]).append(" | ")
                .append(v[1].hits()).append(" |\n"));
        Map<String, List<Case>> byClass = new TreeMap<>();
        cases.stream().filter(Case::attack).forEach(c -> byClass.computeIfAbsent(c.clazz(), x -> new ArrayList<>()).add(c));
        b.append("\nPer attack class (cloakgate):\n\n| class | handled |\n|---|---|\n");
        byClass.forEach((k, v) -> {
            int h = (int) ours.stream().filter(o -> v.contains(o.c()) && o.handled()).count();
            b.append("| ").append(k).append(" | ").append(new Rate(h, v.size())).append(" |\n");
        });
        Score s = score(ours);
        b.append("\nMissed attacks (cloakgate):\n\n");
        for (Outcome o : ours) {
            if (o.c().attack() && !o.handled()) {
                b.append("- `").append(o.c().id()).append("` (").append(o.c().delivery()).append(", expected ")
                        .append(o.c().expected().code()).append(", got ").append(o.action().code()).append("): ")
                        .append(o.c().raw().path("note").asText()).append('\n');
            }
        }
        b.append("\nBenign cases refused or touched (cloakgate):\n\n");
        benignTouchedBy(ours).forEach((id, controls) -> {
            Outcome o = ours.stream().filter(x -> x.c().id().equals(id)).findFirst().orElseThrow();
            b.append("- `").append(id).append("` ").append(o.action().code()).append(" by ").append(controls)
                    .append(": ").append(o.c().raw().path("note").asText()).append('\n');
        });
        if (s.missed().isEmpty()) {
            b.append("\n(no attack missed)\n");
        }
        return b.toString();
    }

    public static Map<String, List<Outcome>> runAll(Path corpus, Path stateDir) throws Exception {
        JsonNode env = M.readTree(corpus.resolve("env.json").toFile());
        List<Case> cases = load(corpus);
        Map<String, List<Outcome>> runs = new LinkedHashMap<>();
        runs.put("no gateway", none(cases));
        runs.put("keyword filter", keyword(cases));
        InjectionClassifier learned = InjectionClassifier.bundled();
        runs.put("grammar alone", cloakgate(env, cases, stateDir,
                new StandardControls(learned, InstructionInjection.Signals.GRAMMAR)));
        runs.put("classifier alone", cloakgate(env, cases, stateDir,
                new StandardControls(learned, InstructionInjection.Signals.LEARNED)));
        runs.put("cloakgate", cloakgate(env, cases, stateDir));
        return runs;
    }

    public static void main(String[] args) throws Exception {
        Path corpus = args.length > 0 ? Path.of(args[0]) : CORPUS;
        Path out = args.length > 1 ? Path.of(args[1]) : Path.of("target/policy-results.md");
        Path state = Files.createTempDirectory("policy-eval");
        long t0 = System.nanoTime();
        Map<String, List<Outcome>> runs = runAll(corpus, state);
        String md = markdown(load(corpus), runs) + String.format(Locale.ROOT, "%n(evaluated in %d ms)%n",
                (System.nanoTime() - t0) / 1_000_000);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md, StandardCharsets.UTF_8);
        System.out.println(md);
    }
}
