package dev.cloakgate.policy.control;

import java.util.List;
import java.util.Set;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/**
 * Exact-match permit list of the names the agent sees. At discovery it hides what may not be called, at request
 * it refuses it (a client may hold a name from elsewhere). An empty list denies everything: an operator who wrote
 * {@code []} asked for nothing to be callable.
 */
public final class ToolAllowlist implements Control {
    private final Set<String> allowed;

    public ToolAllowlist(List<String> allowed) {
        this.allowed = Set.copyOf(allowed);
    }

    @Override
    public String name() {
        return "tool_allowlist";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.DISCOVERY || stage == Stage.REQUEST;
    }

    @Override
    public void inspect(Subject s, Findings out) {
        if (!allowed.contains(s.tool())) {
            out.add(Action.BLOCK, "tool_not_allowed", "the tool is not on the tenant's tool_allowlist");
        }
    }
}
