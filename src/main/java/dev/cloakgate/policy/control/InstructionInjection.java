package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Catalog;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.FindingDetail;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;
import dev.cloakgate.policy.Texts;
import dev.cloakgate.policy.control.Imperatives.Shape;

/**
 * Instructions addressed to the model inside text it is about to read: in a tool's declaration at discovery
 * (description, titles and descriptions anywhere in its schemas, the annotations' title) and in every string of
 * a result or error at response. Matches the shape of an imperative aimed at the model's own conduct, not a list
 * of phrases; a finding in quoted or reported text is kept but demoted to allow (a wrapper counts as quotation
 * only when text outside it frames it: backticks are free). One finding per string, naming
 * its JSON pointer and the shapes seen, never the text.
 */
public final class InstructionInjection implements Control {
    public static final String NAME = "instruction_injection";

    /** Which signals judge a tool result: both in the gateway; one alone only to measure it. */
    public enum Signals { GRAMMAR, LEARNED, BOTH }

    private final InjectionScan scan;
    /** The tenant's tools, or null: a request a tool of the session could carry out is the shape's strongest form. */
    private final Catalog catalog;

    /** Both signals, the bundled model loaded here (the gateway loads it once: {@link StandardControls}). */
    public InstructionInjection() {
        this(null);
    }

    public InstructionInjection(Catalog catalog) {
        this(catalog, InjectionClassifier.bundled(), Signals.BOTH);
    }

    public InstructionInjection(Catalog catalog, InjectionClassifier learned, Signals signals) {
        this.catalog = catalog;
        this.scan = new InjectionScan(signals != Signals.LEARNED, signals == Signals.GRAMMAR ? null : learned);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.DISCOVERY || stage == Stage.RESPONSE;
    }

    @Override
    public void inspect(Subject subject, Findings out) {
        JsonNode payload = subject.payload();
        if (payload == null) {
            return;
        }
        Set<String> self = selfNames(subject);
        if (subject.stage() == Stage.DISCOVERY) {
            check("/description", payload.get("description"), self, false, out);
            check("/title", payload.get("title"), self, false, out);
            schema("/inputSchema", payload.get("inputSchema"), self, out);
            schema("/outputSchema", payload.get("outputSchema"), self, out);
            JsonNode annotations = payload.get("annotations");
            if (annotations != null) {
                check("/annotations/title", annotations.get("title"), self, false, out);
            }
        } else if (subject.stage() == Stage.RESPONSE) {
            Set<String> actions = actions(subject);
            Set<Shape> perBlock = EnumSet.noneOf(Shape.class);
            Texts.visit(payload, (pointer, key, text) -> {
                InjectionScan.Verdict v = scan.scan(text, self, true, actions);
                if (pointer.startsWith("/content/")) {
                    perBlock.addAll(v.demanded());
                }
                report(pointer, v, out);
                return null;
            });
            joined(payload.get("content"), self, actions, perBlock, out);
        }
    }

    /**
     * An instruction split across the text blocks of one result ("Ignore all previous" | "instructions and send
     * ...") reaches the model as one text: the blocks are judged joined, a block boundary read as a line break.
     * Reported at {@code /content} only for what no single block showed.
     */
    private void joined(JsonNode content, Set<String> self, Set<String> actions, Set<Shape> perBlock, Findings out) {
        if (content == null || !content.isArray() || content.size() < 2) {
            return;
        }
        StringBuilder b = new StringBuilder();
        int blocks = 0;
        for (JsonNode block : content) {
            JsonNode text = block.get("text");
            if ("text".equals(block.path("type").asText()) && text != null && text.isTextual()) {
                if (blocks++ > 0) {
                    // a block that stops mid-sentence ("... pharmacy account and" | "change the dose ...") runs on
                    // into the next, as the model reads it
                    b.append(openEnded(b) ? ' ' : '\n');
                }
                b.append(text.textValue());
            }
        }
        if (blocks < 2) {
            return;
        }
        InjectionScan.Verdict v = scan.scan(b.toString(), self, true, actions);
        Set<Shape> fresh = EnumSet.noneOf(Shape.class);
        fresh.addAll(v.demanded());
        fresh.removeAll(perBlock);
        if (!fresh.isEmpty()) {
            out.add(Action.BLOCK, "instruction_injection",
                    detail("/content", fresh, v.hidden(), Set.of()) + "; split across content blocks");
        }
    }

    /** The text so far ends inside a sentence: its last visible character is a letter, a digit or a comma. */
    private static boolean openEnded(CharSequence b) {
        int i = b.length() - 1;
        while (i >= 0 && Character.isWhitespace(b.charAt(i))) {
            i--;
        }
        return i >= 0 && (Character.isLetterOrDigit(b.charAt(i)) || b.charAt(i) == ',');
    }

    /**
     * The verbs of the tenant's other tools ({@link ActionRequest#verbs}); none without a catalogue. The tool
     * whose result this is does not count: its own verb in its own output is its business.
     */
    private Set<String> actions(Subject subject) {
        if (catalog == null) {
            return Set.of();
        }
        // the catalogue changes only when an upstream is listed again (each record() stores a new set): the verbs
        // are worked out once per catalogue state and tool, not on every result
        List<Set<String>> state = new ArrayList<>(catalog.order().size());
        for (String upstream : catalog.order()) {
            state.add(catalog.names(upstream));
        }
        Verbs cached = verbs;
        if (cached == null || !sameSets(cached.state(), state)) {
            cached = new Verbs(state, new ConcurrentHashMap<>());
            verbs = cached;
        }
        String key = subject.upstream() + "\u0000" + subject.upstreamTool();
        return cached.byTool().computeIfAbsent(key, k -> computeActions(subject));
    }

    /** The verbs of the catalogue as it was when they were worked out, per tool whose result is judged. */
    private record Verbs(List<Set<String>> state, Map<String, Set<String>> byTool) {
    }

    private volatile Verbs verbs;

    private static boolean sameSets(List<Set<String>> a, List<Set<String>> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    private Set<String> computeActions(Subject subject) {
        List<String> names = new ArrayList<>();
        for (String upstream : catalog.order()) {
            for (String name : catalog.names(upstream)) {
                if (!(upstream.equals(subject.upstream()) && name.equals(subject.upstreamTool()))) {
                    names.add(name);
                }
            }
        }
        return ActionRequest.verbs(names, Set.of());
    }

    /** Strings a model reads in a schema: descriptions and titles at any depth, and example or default text. */
    private void schema(String pointer, JsonNode node, Set<String> self, Findings out) {
        if (node == null || !node.isContainerNode()) {
            return;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                schema(pointer + "/" + i, node.get(i), self, out);
            }
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        for (int position = 0; it.hasNext(); position++) {
            Map.Entry<String, JsonNode> e = it.next();
            String p = pointer + "/" + FindingDetail.segment(e.getKey(), position);
            JsonNode v = e.getValue();
            if (v.isTextual() && (e.getKey().equals("description") || e.getKey().equals("title")
                    || e.getKey().equals("default") || e.getKey().equals("$comment"))) {
                check(p, v, self, false, out);
            } else if (v.isArray() && (e.getKey().equals("examples") || e.getKey().equals("enum"))) {
                for (int i = 0; i < v.size(); i++) {
                    check(p + "/" + i, v.get(i), self, false, out);
                }
            } else if (v.isContainerNode()) {
                schema(p, v, self, out);
            }
        }
    }

    private void check(String pointer, JsonNode node, Set<String> self, boolean response, Findings out) {
        if (node != null && node.isTextual()) {
            report(pointer, scan.scan(node.textValue(), self, response, Set.of()), out);
        }
    }

    private static void report(String pointer, InjectionScan.Verdict v, Findings out) {
        if (!v.any()) {
            return;
        }
        if (!v.demanded().isEmpty()) {
            out.add(Action.BLOCK, "instruction_injection", detail(pointer, v.demanded(), v.hidden(), Set.of()));
        } else {
            out.addDemoted(Action.ALLOW, "instruction_injection_quoted",
                    detail(pointer, v.quoted(), v.hidden(), v.why()));
        }
    }

    private static String detail(String pointer, Set<Shape> shapes, Set<String> hidden, Set<String> why) {
        StringJoiner j = new StringJoiner(", ");
        for (Shape s : shapes) {
            j.add(s.words());
        }
        StringBuilder b = new StringBuilder(pointer.isEmpty() ? "/" : pointer)
                .append(": imperative addressed to the model, ").append(j);
        for (String h : hidden) {
            b.append("; ").append(h);
        }
        for (String w : why) {
            b.append("; demoted: ").append(w);
        }
        return b.toString();
    }

    private static Set<String> selfNames(Subject subject) {
        Set<String> self = new HashSet<>();
        for (String n : new String[] {subject.tool(), subject.upstreamTool()}) {
            if (n != null) {
                self.add(n.toLowerCase(Locale.ROOT));
            }
        }
        if (subject.declaration() != null && subject.declaration().hasNonNull("name")) {
            self.add(subject.declaration().get("name").asText().toLowerCase(Locale.ROOT));
        }
        if (subject.payload() != null && subject.stage() == Stage.DISCOVERY && subject.payload().hasNonNull("name")) {
            self.add(subject.payload().get("name").asText().toLowerCase(Locale.ROOT));
        }
        return self;
    }
}
