package dev.cloakgate.gate;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A ToolContract (seed "Tool contracts"): per exposed tool, which arguments a call may carry and what values they may
 * take, whether it has side effects and whether it needs an approval. Read strictly: a key the format does not have,
 * at any level, is a parse error naming its path, never ignored. A release binds it by {@link #reference()} in its
 * {@code spec.policies}, so the contract is part of what the certification signs.
 *
 * <pre>
 * apiVersion: cloakgate.dev/v1alpha1      # or cloakpipe.co/v1alpha1
 * kind: ToolContract
 * metadata: { name: crm-tools }
 * spec:
 *   tools:
 *     crm__patch:
 *       sideEffect: true
 *       requiresApproval: true
 *       arguments: { record: { bindTo: task.record }, patch: { type: object, ... } }
 *       required: [record, patch]
 * </pre>
 */
public final class ToolContract {
    public static final Set<String> API_VERSIONS = Set.of("cloakpipe.co/v1alpha1", "cloakgate.dev/v1alpha1");
    public static final String KIND = "ToolContract";
    private static final Set<String> TOP = Set.of("apiVersion", "kind", "metadata", "spec");
    private static final Set<String> TOOL = Set.of("sideEffect", "requiresApproval", "arguments", "required");
    /** A contract name: safe in a reference and a log line. */
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private final String name;
    private final String sha256;
    private final Map<String, ToolRule> tools;

    private ToolContract(String name, String sha256, Map<String, ToolRule> tools) {
        this.name = name;
        this.sha256 = sha256;
        this.tools = Collections.unmodifiableMap(tools);
    }

    /**
     * Reads a contract written as YAML or JSON; {@code what} names it in errors ("contract crm.yaml").
     *
     * @throws IllegalArgumentException naming the contract and the path of what is wrong, never quoting a value
     */
    public static ToolContract parse(byte[] document, String what) {
        JsonNode tree = GateDocuments.read(document, what);
        try {
            return of(tree);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }

    /** Compiles a contract already read into a tree. */
    public static ToolContract of(JsonNode tree) {
        only(tree, TOP, "");
        JsonNode api = tree.get("apiVersion");
        if (api == null || !api.isTextual() || !API_VERSIONS.contains(api.textValue())) {
            throw ArgumentRule.error("apiVersion", "must be one of " + API_VERSIONS);
        }
        if (!KIND.equals(text(tree.get("kind")))) {
            throw ArgumentRule.error("kind", "must be " + KIND);
        }
        JsonNode metadata = tree.get("metadata");
        if (metadata == null || !metadata.isObject()) {
            throw ArgumentRule.error("metadata", "must be a mapping with a name");
        }
        only(metadata, Set.of("name"), "metadata");
        String name = text(metadata.get("name"));
        if (name == null || !NAME.matcher(name).matches()) {
            throw ArgumentRule.error("metadata.name", "must match " + NAME.pattern());
        }
        JsonNode spec = tree.get("spec");
        if (spec == null || !spec.isObject()) {
            throw ArgumentRule.error("spec", "must be a mapping with tools");
        }
        only(spec, Set.of("tools"), "spec");
        JsonNode declared = spec.get("tools");
        if (declared == null || !declared.isObject() || declared.isEmpty()) {
            throw ArgumentRule.error("spec.tools", "must map at least one exposed tool name to its rules");
        }
        String sha256 = Domains.hash(Domains.TOOL_CONTRACT, tree);
        String reference = "policy:" + name + "@sha256:" + sha256;
        Map<String, ToolRule> tools = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = declared.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String base = "spec.tools." + e.getKey();
            JsonNode t = e.getValue();
            if (!t.isObject()) {
                throw ArgumentRule.error(base, "must be a mapping (sideEffect, requiresApproval, arguments, required)");
            }
            only(t, TOOL, base);
            tools.put(e.getKey(), new ToolRule(reference, e.getKey(), flag(t, "sideEffect", base),
                    flag(t, "requiresApproval", base),
                    ArgumentRule.toolArguments(base, t.get("arguments"), t.get("required"))));
        }
        return new ToolContract(name, sha256, tools);
    }

    public String name() {
        return name;
    }

    /** {@code policy:<name>@sha256:<hex>}, hex = SHA-256 over the tool-contract domain, a newline and JCS(contract). */
    public String reference() {
        return "policy:" + name + "@sha256:" + sha256;
    }

    public Map<String, ToolRule> tools() {
        return tools;
    }

    /** The rule for {@code tool}, or null when this contract does not declare it. */
    public ToolRule rule(String tool) {
        return tools.get(tool);
    }

    /** The first rule the call breaks, or null (also when this contract does not declare {@code tool}). */
    public Violation check(String tool, JsonNode arguments, TaskContext context) {
        ToolRule rule = tools.get(tool);
        return rule == null ? null : rule.check(arguments, context);
    }

    private static boolean flag(JsonNode t, String key, String base) {
        JsonNode v = t.get(key);
        if (v == null) {
            return false;
        }
        if (!v.isBoolean()) {
            throw ArgumentRule.error(base + "." + key, "must be true or false");
        }
        return v.booleanValue();
    }

    private static void only(JsonNode o, Set<String> allowed, String at) {
        for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw ArgumentRule.error(at.isEmpty() ? k : at + "." + k, "unknown key (allowed: " + new java.util.TreeSet<>(allowed) + ")");
            }
        }
    }

    private static String text(JsonNode v) {
        return v != null && v.isTextual() ? v.textValue() : null;
    }
}
