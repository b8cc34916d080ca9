package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

import dev.cloakgate.policy.Catalog;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.tenant.PolicySettings;

/** The controls built from the tenant's lists: path_sandbox, egress_control, instruction_injection. */
public final class StandardControls implements Policy.ExtraControls {
    @Override
    public List<Control> controls(PolicySettings s) {
        return controls(s, null);
    }

    @Override
    public List<Control> controls(PolicySettings s, Catalog catalog) {
        List<Control> out = new ArrayList<>();
        if (s.pathRoots() != null && s.on("path_sandbox")) {
            out.add(new PathSandbox(s.pathRoots(), s.pathBase()));
        }
        if (s.egressAllowlist() != null && s.on("egress_control")) {
            out.add(new EgressControl(s.egressAllowlist()));
        }
        if (s.on("instruction_injection")) {
            out.add(new InstructionInjection(catalog));
        }
        return out;
    }

    @Override
    public BiPredicate<String, Set<String>> instructsAbout() {
        Imperatives imperatives = new Imperatives();
        return imperatives::instructsAbout;
    }
}
