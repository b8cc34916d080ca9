package dev.cloakgate.policy;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Runs every control that applies to a stage and merges their findings: the most severe action wins, every
 * finding is kept, none is weighted. A control that throws is a finding of its own that blocks: a check that
 * could not run has not passed.
 */
public final class PolicyEngine {
    private final List<Control> controls;

    public PolicyEngine(List<Control> controls) {
        this.controls = List.copyOf(controls);
    }

    public List<Control> controls() {
        return controls;
    }

    public Decision evaluate(Subject s) {
        Findings out = new Findings();
        for (Control c : controls) {
            if (!c.appliesTo(s.stage())) {
                continue;
            }
            out.forControl(c.name());
            try {
                c.inspect(s, out);
            } catch (RuntimeException e) {
                out.add(Action.BLOCK, "control_failed", "the control failed (" + e.getClass().getSimpleName() + ")");
            }
        }
        List<Finding> findings = out.list();
        return switch (out.max()) {
            case ALLOW -> new Decision.Allow(findings);
            case REDACT -> new Decision.Redact(s.payload(), findings);
            case REQUIRE_APPROVAL -> new Decision.RequireApproval(fingerprint(s.tool(), s.payload()), findings);
            case BLOCK -> new Decision.Block(findings.stream().filter(f -> f.action() == Action.BLOCK)
                    .map(Finding::reason).findFirst().orElse("blocked"), findings);
        };
    }

    /**
     * SHA-256 of the call: the tool's exposed name and its arguments, canonically serialised. The engine
     * computes it over the payload it was given (only when a call is held); callers that let controls redact
     * recompute it over the arguments as sent.
     */
    public static String fingerprint(String tool, JsonNode arguments) {
        var call = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        call.put("tool", tool);
        call.set("arguments", arguments == null ? com.fasterxml.jackson.databind.node.NullNode.instance : arguments);
        return CanonicalJson.sha256(call);
    }
}
