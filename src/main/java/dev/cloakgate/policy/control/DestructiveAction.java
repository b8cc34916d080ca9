package dev.cloakgate.policy.control;

import java.util.List;
import java.util.Set;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/**
 * Irreversible calls are held for a human instead of refused: refusing them outright is what makes an operator
 * switch a control off. Irreversible means annotated {@code destructiveHint: true} by its server (and not
 * {@code readOnlyHint: true}), or named in the tenant's {@code destructive_tools}. The MCP default of
 * destructiveHint (true when absent) is not used: it would hold every unannotated tool.
 */
public final class DestructiveAction implements Control {
    private final Set<String> configured;

    public DestructiveAction(List<String> configured) {
        this.configured = Set.copyOf(configured);
    }

    @Override
    public String name() {
        return "destructive_action";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.REQUEST;
    }

    @Override
    public void inspect(Subject s, Findings out) {
        if (configured.contains(s.tool())) {
            out.add(Action.REQUIRE_APPROVAL, "approval_required", "the tool is listed in destructive_tools");
            return;
        }
        if (s.declaration() != null) {
            var ann = s.declaration().path("annotations");
            if (ann.path("destructiveHint").asBoolean(false) && !ann.path("readOnlyHint").asBoolean(false)) {
                out.add(Action.REQUIRE_APPROVAL, "approval_required", "the server annotates the tool destructiveHint");
            }
        }
    }
}
