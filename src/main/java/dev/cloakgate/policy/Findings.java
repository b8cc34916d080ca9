package dev.cloakgate.policy;

import java.util.ArrayList;
import java.util.List;

/** Where a control reports; the engine reads the merged result. */
public final class Findings {
    private final List<Finding> all = new ArrayList<>();
    private String control;

    void forControl(String name) {
        this.control = name;
    }

    public void add(Action action, String reason, String detail) {
        all.add(new Finding(control, action, reason, detail));
    }

    /** A finding the control saw but judged quoted rather than meant, reported at the lowered action. */
    public void addDemoted(Action action, String reason, String detail) {
        all.add(new Finding(control, action, reason, detail, true));
    }

    public List<Finding> list() {
        return List.copyOf(all);
    }

    public Action max() {
        Action a = Action.ALLOW;
        for (Finding f : all) {
            a = Action.max(a, f.action());
        }
        return a;
    }
}
