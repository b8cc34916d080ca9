package dev.cloakgate.tenant;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tenant's {@code policy} block. Absent: no policy engine (the gateway is a transparent, cloaking proxy).
 * Present, even empty: the controls that need no configuration are on (schema_conformance, tool_shadowing,
 * destructive_action, budget, secret_disclosure, instruction_injection, tool pinning); the ones that need a
 * list are on when their list is given.
 *
 * @param stripInstructions discovery mode: true for {@code strip} (relay a declaration whose only fault is
 *        instructions, with its descriptions removed), false for {@code withhold} (the default: leave it out)
 * @param toolAllowlist exposed tool names that may be called, exact match; null: no allowlist; empty: none
 * @param destructiveTools exposed names held for approval besides those annotated {@code destructiveHint}
 * @param pathRoots sandbox roots; null: path_sandbox off
 * @param pathBase by upstream name, the absolute directory that upstream resolves relative paths against; an
 *        upstream without one gets no relative path past path_sandbox
 * @param egressAllowlist allowed hosts; null: egress_control off
 * @param disabled controls switched off by name
 */
public record PolicySettings(boolean stripInstructions, List<String> toolAllowlist, List<String> destructiveTools,
        List<String> pathRoots, Map<String, String> pathBase, List<String> egressAllowlist, Budget budget,
        Set<String> disabled) {

    public static final Set<String> CONTROLS = Set.of("tool_allowlist", "tool_shadowing", "destructive_action",
            "schema_conformance", "path_sandbox", "budget", "secret_disclosure", "egress_control",
            "instruction_injection", "tool_pinning");

    public PolicySettings {
        toolAllowlist = toolAllowlist == null ? null : List.copyOf(toolAllowlist);
        destructiveTools = List.copyOf(destructiveTools);
        pathRoots = pathRoots == null ? null : List.copyOf(pathRoots);
        pathBase = pathBase == null ? Map.of() : Map.copyOf(pathBase);
        egressAllowlist = egressAllowlist == null ? null : List.copyOf(egressAllowlist);
        disabled = Set.copyOf(disabled);
    }

    public static PolicySettings defaults() {
        return new PolicySettings(false, null, List.of(), null, Map.of(), null, Budget.defaults(), Set.of());
    }

    public boolean on(String control) {
        return !disabled.contains(control);
    }

    /**
     * Whether path_sandbox resolves this upstream's relative paths against a declared base. Such an upstream must
     * not have its base moved by the client (server-filesystem replaces its directories with the client's MCP
     * roots), so the session withholds {@code roots/list} from it.
     */
    public boolean fixesPathBase(String upstream) {
        return pathRoots != null && on("path_sandbox") && pathBase.containsKey(upstream);
    }

    /**
     * Limits. Calls count per session, per tool within a session, and per tenant per minute; a result larger
     * than {@code outputBytes} (its JSON) is refused; {@code breakerErrors} consecutive errors from one tool open
     * its breaker for {@code breakerSeconds}, tenant-wide.
     */
    public record Budget(int sessionCalls, int toolCalls, int tenantCallsPerMinute, long outputBytes,
            int breakerErrors, int breakerSeconds) {
        public static Budget defaults() {
            return new Budget(1_000, 200, 6_000, 4L << 20, 5, 30);
        }
    }
}
