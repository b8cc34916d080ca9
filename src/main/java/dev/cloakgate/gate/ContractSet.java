package dev.cloakgate.gate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tool contracts a release binds. The release's {@code spec.policies} lists each as {@code policy:<name>@sha256:
 * <hex>}; the contracts loaded must be exactly those: a reference whose contract is missing or differs (one byte of
 * it changes the hash), and a loaded contract the release does not reference, are configuration errors naming both
 * sides. Otherwise an edited contract would be enforced under a certification that never saw it. One tool is
 * declared by at most one contract.
 */
public final class ContractSet {
    public static final ContractSet EMPTY = new ContractSet(List.of(), Map.of());
    private static final Pattern REFERENCE = Pattern.compile("policy:([^@]+)@sha256:([0-9a-f]{64})");

    private final List<ToolContract> contracts;
    private final Map<String, ToolRule> rules;

    private ContractSet(List<ToolContract> contracts, Map<String, ToolRule> rules) {
        this.contracts = List.copyOf(contracts);
        this.rules = Collections.unmodifiableMap(rules);
    }

    /**
     * @param policies the release manifest's {@code spec.policies} entries
     * @throws IllegalArgumentException naming the reference and the contract that disagree
     */
    public static ContractSet bind(List<String> policies, List<ToolContract> contracts) {
        Map<String, ToolContract> byName = new LinkedHashMap<>();
        for (ToolContract c : contracts) {
            if (byName.put(c.name(), c) != null) {
                throw new IllegalArgumentException("two contracts are named " + c.name());
            }
        }
        List<String> bound = new ArrayList<>();
        for (String p : policies) {
            Matcher m = REFERENCE.matcher(p);
            if (!m.matches()) {
                throw new IllegalArgumentException("spec.policies entry " + p + " is not policy:<name>@sha256:<64 hex>");
            }
            ToolContract c = byName.get(m.group(1));
            if (c == null) {
                throw new IllegalArgumentException("the release binds " + p + " but no contract named " + m.group(1)
                        + " is loaded");
            }
            if (!c.reference().equals(p)) {
                throw new IllegalArgumentException("the release binds " + p + " but the contract loaded is "
                        + c.reference() + " (it changed since the release was made: certify the release again)");
            }
            bound.add(c.name());
        }
        Map<String, ToolRule> rules = new LinkedHashMap<>();
        for (ToolContract c : contracts) {
            if (!bound.contains(c.name())) {
                throw new IllegalArgumentException("contract " + c.reference() + " is not bound by the release (add it"
                        + " to spec.policies and certify the release again)");
            }
            for (ToolRule r : c.tools().values()) {
                ToolRule other = rules.put(r.tool(), r);
                if (other != null) {
                    throw new IllegalArgumentException("tool " + r.tool() + " is declared by two contracts: "
                            + other.contract() + " and " + r.contract());
                }
            }
        }
        return new ContractSet(contracts, rules);
    }

    /** The rule for an exposed tool, or null when no contract declares it (release-gate behaviour only). */
    public ToolRule rule(String tool) {
        return rules.get(tool);
    }

    public List<ToolContract> contracts() {
        return contracts;
    }

    /** True when some contract tool has side effects: the gate then needs an operations store. */
    public boolean hasSideEffects() {
        return rules.values().stream().anyMatch(ToolRule::sideEffect);
    }
}
