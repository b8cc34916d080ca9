package dev.cloakgate.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.Set;

import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.policy.control.Budget;
import dev.cloakgate.policy.control.DestructiveAction;
import dev.cloakgate.policy.control.SchemaConformance;
import dev.cloakgate.policy.control.SecretDisclosure;
import dev.cloakgate.policy.control.ToolAllowlist;
import dev.cloakgate.policy.control.ToolPinning;
import dev.cloakgate.policy.control.ToolShadowing;
import dev.cloakgate.tenant.PolicySettings;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * One tenant's policy: its controls (built from the {@code policy} block), the engine, the catalog of what its
 * upstreams declare, its pins, and its decision trace. Sessions get a {@link PolicySession} each.
 */
public final class Policy implements AutoCloseable {
    private final String tenant;
    private final PolicySettings settings;
    private final PolicyEngine engine;
    private final Catalog catalog;
    private final Budget budget;
    private final DecisionTrace trace;
    private final Evidence evidence;
    private final TenantSecret secret;
    private final MeterRegistry meters;
    private final PolicyEngine promptEngine;
    private final PolicyEngine promptResultEngine;
    /** The state this policy opened itself and closes; null when the state is the caller's (kept across reloads). */
    private final PolicyState owned;

    Policy(String tenant, PolicySettings settings, PolicyEngine engine, Catalog catalog, Budget budget,
            DecisionTrace trace, Evidence evidence, TenantSecret secret, MeterRegistry meters, PolicyState owned) {
        this.owned = owned;
        this.tenant = tenant;
        this.evidence = evidence;
        this.settings = settings;
        this.engine = engine;
        this.catalog = catalog;
        this.budget = budget;
        this.trace = trace;
        this.secret = secret;
        this.meters = meters;
        this.promptEngine = new PolicyEngine(engine.controls().stream()
                .filter(c -> c.name().equals("instruction_injection")).toList());
        // a prompt's messages are instructions the user chose to send ("Act as a reviewer..."): judging them as
        // injected instructions would refuse every prompt; their declarations are judged at discovery instead
        this.promptResultEngine = new PolicyEngine(engine.controls().stream()
                .filter(c -> !c.name().equals("instruction_injection")).toList());
    }

    /**
     * Builds the tenant's policy. {@code extra} supplies the controls that need the tenant's lists
     * (path_sandbox, egress_control) and the injection analyser, so this class does not hard-wire them.
     */
    public static Policy create(String tenant, List<String> upstreamOrder, PolicySettings s, Path dataDir,
            MeterRegistry meters, ExtraControls extra) throws IOException {
        return create(tenant, upstreamOrder, s, dataDir, meters, extra, Evidence.NONE, TenantSecret.load(dataDir, tenant));
    }

    /**
     * As above, every decision also going to {@code evidence} (the ledger), payloads and sessions digested under
     * {@code secret}: the tenant's one secret, which the ledger's other entries use too.
     */
    public static Policy create(String tenant, List<String> upstreamOrder, PolicySettings s, Path dataDir,
            MeterRegistry meters, ExtraControls extra, Evidence evidence, TenantSecret secret) throws IOException {
        PolicyState state = PolicyState.open(dataDir, tenant);
        return create(tenant, upstreamOrder, s, meters, extra, evidence, secret, state, state);
    }

    /**
     * A policy over the tenant's lasting {@code state} (pins, trace, tenant-wide budget counts), which the caller
     * keeps and closes: a reload of the tenant file builds a new policy over the same state.
     */
    public static Policy create(String tenant, List<String> upstreamOrder, PolicySettings s, MeterRegistry meters,
            ExtraControls extra, Evidence evidence, TenantSecret secret, PolicyState state) {
        return create(tenant, upstreamOrder, s, meters, extra, evidence, secret, state, null);
    }

    private static Policy create(String tenant, List<String> upstreamOrder, PolicySettings s, MeterRegistry meters,
            ExtraControls extra, Evidence evidence, TenantSecret secret, PolicyState state, PolicyState owned) {
        FindingDetail.preload();
        Catalog catalog = new Catalog(upstreamOrder);
        List<Control> controls = new ArrayList<>();
        Budget budget = null;
        if (s.on("tool_pinning") && meters != null) {
            // each upstream's quarantine count exists from the start at 0 (an alert on increase() needs the series)
            upstreamOrder.forEach(u -> meters.counter("cloakgate.tools.quarantined", "tenant", tenant, "upstream", u));
        }
        if (s.on("tool_pinning")) {
            // issue 10: each quarantine this process logs is counted (the upstream's configured name, no tool name)
            controls.add(new ToolPinning(state.pins(), upstream -> {
                if (meters != null) {
                    meters.counter("cloakgate.tools.quarantined", "tenant", tenant, "upstream", upstream).increment();
                }
            }));
        }
        if (s.toolAllowlist() != null && s.on("tool_allowlist")) {
            controls.add(new ToolAllowlist(s.toolAllowlist()));
        }
        if (s.on("tool_shadowing")) {
            controls.add(new ToolShadowing(catalog, extra.instructsAbout()));
        }
        if (s.on("schema_conformance")) {
            controls.add(new SchemaConformance());
        }
        if (s.on("destructive_action")) {
            controls.add(new DestructiveAction(s.destructiveTools()));
        }
        if (s.on("budget")) {
            budget = new Budget(s.budget(), state.budget());
            controls.add(budget);
        }
        controls.addAll(extra.controls(s, catalog));
        if (s.on("secret_disclosure")) {
            controls.add(new SecretDisclosure());
        }
        return new Policy(tenant, s, new PolicyEngine(controls), catalog, budget, state.trace(), evidence, secret, meters,
                owned);
    }

    /** The controls this class does not build itself. */
    public interface ExtraControls {
        List<Control> controls(PolicySettings s);

        /** The controls, given the tenant's tool catalogue (issue 13: what the session's tools can do). */
        default List<Control> controls(PolicySettings s, Catalog catalog) {
            return controls(s);
        }

        BiPredicate<String, Set<String>> instructsAbout();
    }

    public String tenant() {
        return tenant;
    }

    public PolicySettings settings() {
        return settings;
    }

    public Catalog catalog() {
        return catalog;
    }

    public PolicyEngine engine() {
        return engine;
    }

    public PolicySession session(String sessionId) {
        return new PolicySession(this, secret.sessionDigest(sessionId), sessionId);
    }

    void closed(String sessionId) {
        if (budget != null) {
            budget.forget(sessionId);
        }
    }

    /** Evaluates, times and traces one decision. */
    Decision decide(Subject s, String sessionDigest) {
        return decide(engine, s, sessionDigest);
    }

    /** The response stage of a prompts/get: every response control but instruction_injection. */
    Decision decidePromptResult(Subject s, String sessionDigest) {
        return decide(promptResultEngine, s, sessionDigest);
    }

    private Decision decide(PolicyEngine engine, Subject s, String sessionDigest) {
        long t0 = System.nanoTime();
        Decision d = engine.evaluate(s);
        record(s, sessionDigest, d, (System.nanoTime() - t0) / 1_000);
        count(s, d);
        return d;
    }

    private void count(Subject s, Decision d) {
        if (meters != null) {
            meters.counter("cloakgate.policy.decisions", "tenant", tenant, "stage", s.stage().code(), "action",
                    d.action().code()).increment();
        }
    }

    /** Discovery of a prompt: only the controls that judge text the model reads (instruction_injection). */
    Decision decidePrompt(Subject s, String sessionDigest) {
        long t0 = System.nanoTime();
        Decision d = promptEngine.evaluate(s);
        record(s, sessionDigest, d, (System.nanoTime() - t0) / 1_000);
        return d;
    }

    /**
     * The budget's refusal of a result dropped unread for its size (over {@code output_bytes}, judged while it
     * was read), recorded like any decision of the response stage; null when no budget applies or the size does
     * not exceed it. The record carries the bytes seen and the HMAC of nothing: there is no payload to bind.
     */
    Decision oversized(Subject s, String sessionDigest, long bytes) {
        if (budget == null || bytes <= settings.budget().outputBytes()) {
            return null;
        }
        Decision d = new Decision.Block("output_too_large", List.of(new Finding(budget.name(), Action.BLOCK,
                "output_too_large", "result of at least " + bytes + " bytes over output_bytes ("
                        + settings.budget().outputBytes() + "), refused while it was read")));
        record(s, sessionDigest, d, 0, bytes, secret.hmac(""));
        count(s, d);
        return d;
    }

    /** Records a decision made outside the engine (a call to a withheld tool). */
    void traceOnly(Subject s, String sessionDigest, Decision d) {
        record(s, sessionDigest, d, 0);
    }

    /** One trace line and one ledger entry: the payload bound by its length and keyed digest, never by itself. */
    private void record(Subject s, String sessionDigest, Decision d, long micros) {
        String json = s.payload() == null ? "null" : s.payload().toString();
        record(s, sessionDigest, d, micros, json.getBytes(StandardCharsets.UTF_8).length, secret.hmac(json));
    }

    private void record(Subject s, String sessionDigest, Decision d, long micros, long bytes, String hmac) {
        String tool = recordable(s);
        trace.record(new DecisionTrace.Entry(tenant, sessionDigest, s.stage(), s.upstream(), tool, d, micros, bytes, hmac));
        evidence.record(new Event.Decided(tenant, sessionDigest, s.stage().code(), s.upstream(), tool,
                d.action().code(), d.reason(), d.controls(), d.findings().stream().map(f -> new Event.Noted(f.control(),
                        f.action().code(), f.reason(), f.detail(), f.demoted())).toList(), bytes, hmac));
    }

    /**
     * The tool's name as the record may carry it. A call names any tool it likes under an upstream's prefix, so a
     * name the upstream never declared is the model's text ({@code pk__kwame.mensah@example.gh}): kept only when
     * it is plainly an identifier, else written {@value FindingDetail#UNDECLARED}.
     */
    private String recordable(Subject s) {
        String tool = s.tool();
        // discovery names what the upstream declared; without an upstream name it is the gateway's (resources/read)
        if (tool == null || s.stage() == Stage.DISCOVERY || s.upstreamTool() == null || FindingDetail.identifier(tool)
                || catalog.names(s.upstream()).contains(s.upstreamTool())) {
            return tool;
        }
        return FindingDetail.UNDECLARED;
    }

    /** Closes the trace when this policy opened its own state; a shared state is closed by its owner. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
