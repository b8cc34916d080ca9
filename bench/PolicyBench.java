import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.policy.PolicyEngine;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;
import dev.cloakgate.policy.control.StandardControls;
import dev.cloakgate.tenant.EnvExpander;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantParser;

/**
 * Policy evaluation cost on one core, with the policy of the corpus environment (every control on, five
 * upstreams): a typical tools/call (request stage on small arguments, response stage on a 2 KB text result,
 * each traced), then each control alone on results of 10 KB, 100 KB and 1 MB to show cost per KB stays flat.
 * Run with {@code bash bench/policy.sh}.
 */
public class PolicyBench {
    static final ObjectMapper M = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        JsonNode env = corpusEnv();
        TenantConfig tenant = corpusTenant(env);
        Path dir = Files.createTempDirectory("policy-bench");
        System.out.println("{\"machine\":\"" + Runtime.getRuntime().availableProcessors() + " cores, java "
                + System.getProperty("java.version") + "\"}");
        try (Policy policy = Policy.create("bench", List.copyOf(tenant.upstreams().keySet()), tenant.policy(), dir, null,
                new StandardControls())) {
            PolicySession s = policy.session("bench");
            env.path("upstreams").fields().forEachRemaining(e -> s.observe(e.getKey(), e.getValue()));
            env.path("upstreams").fields().forEachRemaining(e -> s.relay(e.getKey(), e.getValue(), n -> e.getKey() + "__" + n));
            JsonNode arguments = typicalArguments();
            StringBuilder text = typicalText();
            ObjectNode result = typicalResult(text);
            long[] req = time(200_000, 20_000, () -> s.request("fs__read_text_file", "fs", "read_text_file", arguments));
            long[] res = time(200_000, 20_000, () -> s.response("fs__read_text_file", "fs", "read_text_file", result, false));
            long[] both = time(200_000, 20_000, () -> {
                s.request("fs__read_text_file", "fs", "read_text_file", arguments);
                s.response("fs__read_text_file", "fs", "read_text_file", result, false);
            });
            // the same two evaluations through the engine alone: no copy, no keyed digest, no trace record
            ObjectNode readDecl = s.declared("fs__read_text_file").declaration();
            long[] engine = time(200_000, 20_000, () -> {
                policy.engine().evaluate(new Subject(Stage.REQUEST, "bench", "fs", "fs__read_text_file", "read_text_file",
                        readDecl, arguments.deepCopy(), false));
                policy.engine().evaluate(new Subject(Stage.RESPONSE, "bench", "fs", "fs__read_text_file", "read_text_file",
                        readDecl, result, false));
            });
            print("typical call: request stage (small arguments)", req);
            print("typical call: response stage (2 KB text result)", res);
            print("typical call: both stages, as the gateway runs them (copies, digests, trace)", both);
            print("typical call: both stages, engine only", engine);
            // issue 13: instruction_injection alone on the 2 KB result, and on 2 KB of review and e-mail prose (every
            // field long enough for the learned signal to score)
            Control injection = policy.engine().controls().stream()
                    .filter(c -> c.name().equals("instruction_injection")).findFirst().orElseThrow();
            PolicyEngine alone = new PolicyEngine(List.of(injection));
            ObjectNode prose = typicalResult(typicalProse());
            long[] inj = time(200_000, 20_000, () -> alone.evaluate(new Subject(Stage.RESPONSE, "bench", "fs",
                    "fs__read_text_file", "read_text_file", readDecl, result, false)));
            long[] injProse = time(100_000, 20_000, () -> alone.evaluate(new Subject(Stage.RESPONSE, "bench", "fs",
                    "fs__read_text_file", "read_text_file", readDecl, prose, false)));
            print("instruction_injection alone: 2 KB text result", inj);
            print("instruction_injection alone: 2 KB of review and e-mail prose", injProse);

            // each control alone, on growing payloads: cost per KB must stay flat
            for (Control c : policy.engine().controls()) {
                if (!c.appliesTo(Stage.RESPONSE) && !c.appliesTo(Stage.REQUEST)) {
                    continue;
                }
                Stage stage = c.appliesTo(Stage.RESPONSE) ? Stage.RESPONSE : Stage.REQUEST;
                double first = 0;
                StringBuilder line = new StringBuilder();
                for (int kb : new int[] { 10, 100, 1000 }) {
                    ObjectNode payload = M.createObjectNode();
                    String body = text.toString().repeat(kb / 2 + 1).substring(0, kb * 1024);
                    if (stage == Stage.RESPONSE) {
                        payload.putArray("content").addObject().put("type", "text").put("text", body);
                    } else {
                        payload.put("path", "/srv/project/notes.txt").put("content", body);
                    }
                    ObjectNode decl = s.declared("fs__write_file").declaration();
                    PolicyEngine one = new PolicyEngine(List.of(c));
                    int n = Math.max(11, 2000 / kb);
                    int warm = Math.max(20, 20_000 / kb);
                    // copies made before timing: the engine is always handed a copy, and copying is not the control's cost
                    java.util.ArrayDeque<JsonNode> copies = new java.util.ArrayDeque<>();
                    for (int i = 0; i < n + warm; i++) {
                        copies.add(payload.deepCopy());
                    }
                    long[] ns = time(n, warm, () -> one.evaluate(new Subject(stage, "b", "fs", "fs__write_file",
                            "write_file", decl, copies.poll(), false)));
                    // the fastest run: at 1 MB a single young-generation collection inside a run would otherwise
                    // be charged to the control; the typical-call rows above report percentiles
                    double perKb = ns[3] / 1000.0 / kb;
                    if (kb == 10) {
                        first = perKb;
                    }
                    line.append(String.format(Locale.ROOT, ",\"us_per_kb_at_%dkb\":%.3f", kb, perKb));
                    if (kb == 1000) {
                        line.append(String.format(Locale.ROOT, ",\"ratio_1mb_vs_10kb\":%.2f", perKb / first));
                    }
                }
                System.out.println("{\"control\":\"" + c.name() + "\",\"stage\":\"" + stage.code() + "\"" + line + "}");
            }
        }
        System.exit(0);
    }

    /** The corpus environment: every control on, five upstreams. */
    static JsonNode corpusEnv() throws java.io.IOException {
        return M.readTree(Path.of("src/test/resources/policy/corpus/env.json").toFile());
    }

    /** Tenant "bench" with the corpus policy and budgets too large to bite. */
    static TenantConfig corpusTenant(JsonNode env) throws Exception {
        ObjectNode t = M.createObjectNode();
        t.putObject("auth").put("mode", "none"); // the tenant file requires auth since issue 10
        ObjectNode ups = t.putObject("upstreams");
        env.path("upstreams").fieldNames().forEachRemaining(u -> ups.putObject(u).put("url", "http://127.0.0.1:9/mcp"));
        t.set("policy", env.path("policy"));
        ((ObjectNode) t.get("policy")).putObject("budget").put("session_calls", 1_000_000_000)
                .put("tool_calls", 1_000_000_000).put("tenant_calls_per_minute", 1_000_000_000);
        return new TenantParser(EnvExpander.ofSystem(), Path.of("")).parse("bench", "bench.json", M.writeValueAsBytes(t));
    }

    /** The typical call's arguments: fs__read_text_file of one path. */
    static JsonNode typicalArguments() throws Exception {
        return M.readTree("{\"path\":\"/srv/project/docs/runbook.md\"}");
    }

    /** About 2 KB of deploy-log text. */
    static StringBuilder typicalText() {
        StringBuilder text = new StringBuilder();
        while (text.length() < 2048) {
            text.append("Deployed build 4.2.1 to the staging cluster; see https://docs.example.org/runbooks/deploy "
                    + "for the rollback steps. Checksums: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.\n");
        }
        return text;
    }

    /** About 2 KB of the prose tools return: reviews and an e-mail, every sentence a field the learned signal scores. */
    static String typicalProse() {
        StringBuilder text = new StringBuilder();
        while (text.length() < 2048) {
            text.append("Great blender, crushes ice in seconds and is much quieter than my old one. The lid is a bit "
                    + "stiff at first but loosens up after a week. Hi team, please find attached the agenda for Monday; "
                    + "let me know if you cannot make it and I will move the review to Thursday afternoon.\n");
        }
        return text.substring(0, 2048);
    }

    /** A tools/call result holding {@code text} as one text content block. */
    static ObjectNode typicalResult(CharSequence text) {
        ObjectNode result = M.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text.toString());
        return result;
    }

    /** {p50, p90, p99, min} nanoseconds after warm-up. */
    static long[] time(int runs, int warm, Runnable r) {
        for (int i = 0; i < warm; i++) {
            r.run();
        }
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            r.run();
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return new long[] { t[runs / 2], t[runs * 9 / 10], t[runs * 99 / 100], t[0] };
    }

    static void print(String what, long[] ns) {
        System.out.printf(Locale.ROOT, "{\"measure\":\"%s\",\"p50_us\":%.1f,\"p90_us\":%.1f,\"p99_us\":%.1f}%n", what,
                ns[0] / 1000.0, ns[1] / 1000.0, ns[2] / 1000.0);
    }
}
