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
    /** Loaded once per gateway: every tenant's policy, and every reload, shares the immutable model. */
    private final InjectionClassifier learned;
    private final InstructionInjection.Signals signals;

    /** Both signals of instruction_injection; a bundled model that cannot be read stops the gateway here. */
    public StandardControls() {
        this(InjectionClassifier.bundled(), InstructionInjection.Signals.BOTH);
    }

    /** For measurement: instruction_injection with one signal alone. */
    public StandardControls(InjectionClassifier learned, InstructionInjection.Signals signals) {
        this.learned = learned;
        this.signals = signals;
    }

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
            out.add(new InstructionInjection(catalog, learned, signals));
        }
        return out;
    }

    @Override
    public BiPredicate<String, Set<String>> instructsAbout() {
        Imperatives imperatives = new Imperatives();
        return imperatives::instructsAbout;
    }
}
