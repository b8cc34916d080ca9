package dev.cloakgate.policy;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A session's view of the policy: the declarations it was shown (what request checks validate against) and the
 * tools it was not shown. Hiding a name from a listing is not making it uncallable: a client may hold the name
 * from an earlier session, so a call to a withheld tool is refused here (-32001 {@code tool_withheld}).
 */
public final class PolicySession {
    private final Policy policy;
    private final String digest;
    private final String sessionId;
    private final Map<String, Declared> declared = new ConcurrentHashMap<>();
    private final Map<String, Decision> withheld = new ConcurrentHashMap<>();
    private final Map<String, Decision> withheldPrompts = new ConcurrentHashMap<>();
    private final Set<String> discovered = ConcurrentHashMap.newKeySet();

    /** A tool as its upstream declared it, under the name the agent sees. */
    public record Declared(String upstream, String upstreamTool, ObjectNode declaration) {
    }

    PolicySession(Policy policy, String digest, String sessionId) {
        this.policy = policy;
        this.digest = digest;
        this.sessionId = sessionId;
    }

    /** Whether the tools of {@code upstream} have been through discovery in this session. */
    public boolean discovered(String upstream) {
        return discovered.contains(upstream);
    }

    /** Forgets that {@code upstream} was discovered (its list changed): the next call discovers it again. */
    public void invalidate(String upstream) {
        discovered.remove(upstream);
    }

    /** Learns the names an upstream declares, before any of them is judged (shadowing compares across upstreams). */
    public void observe(String upstream, JsonNode tools) {
        Set<String> names = new java.util.HashSet<>();
        for (JsonNode t : tools) {
            if (t.path("name").isTextual()) {
                names.add(t.path("name").textValue());
            }
        }
        Set<String> known = new java.util.HashSet<>(policy.catalog().names(upstream));
        known.addAll(names);
        policy.catalog().record(upstream, known);
    }

    /**
     * Discovery for one upstream's tools: returns the declarations to relay (withheld ones left out, stripped
     * ones without their descriptions), names still the upstream's own.
     *
     * @param expose the name the agent will see for an upstream tool name
     */
    public ArrayNode relay(String upstream, JsonNode tools, java.util.function.Function<String, String> expose) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode t : tools) {
            if (!(t instanceof ObjectNode decl) || !t.path("name").isTextual()) {
                continue; // a declaration without a name cannot be called or judged
            }
            String raw = decl.path("name").textValue();
            String exposed = expose.apply(raw);
            Subject s = new Subject(Stage.DISCOVERY, sessionId, upstream, exposed, raw, decl, decl.deepCopy(), false);
            Decision d = policy.decide(s, digest);
            declared.put(exposed, new Declared(upstream, raw, decl));
            if (d instanceof Decision.Block b) {
                if (policy.settings().stripInstructions() && onlyInstructions(b)) {
                    withheld.remove(exposed);
                    out.add(stripped(decl));
                } else {
                    withheld.put(exposed, d);
                }
            } else {
                withheld.remove(exposed);
                out.add(decl);
            }
        }
        discovered.add(upstream);
        return out;
    }

    /**
     * Discovery for prompts: a prompt's description and argument descriptions reach the model like a tool's, so
     * instructions in them are withheld (or stripped) the same way. Only instruction_injection judges prompts:
     * the allowlist, shadowing and pins are about tools.
     */
    public ArrayNode relayPrompts(String upstream, JsonNode prompts, java.util.function.Function<String, String> expose) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode p : prompts) {
            if (!(p instanceof ObjectNode decl) || !p.path("name").isTextual()) {
                continue;
            }
            String raw = decl.path("name").textValue();
            String exposed = expose.apply(raw);
            Decision d = policy.decidePrompt(new Subject(Stage.DISCOVERY, sessionId, upstream, exposed, raw, decl,
                    decl.deepCopy(), false), digest);
            if (d instanceof Decision.Block) {
                if (policy.settings().stripInstructions()) {
                    withheldPrompts.remove(exposed);
                    ObjectNode copy = decl.deepCopy();
                    copy.remove("description");
                    copy.remove("title");
                    copy.path("arguments").forEach(a -> {
                        if (a instanceof ObjectNode ao) {
                            ao.remove("description");
                            ao.remove("title");
                        }
                    });
                    out.add(copy);
                } else {
                    withheldPrompts.put(exposed, d);
                }
            } else {
                withheldPrompts.remove(exposed);
                out.add(decl);
            }
        }
        return out;
    }

    /** A refusal for a prompt discovery withheld in this session, or null. */
    public Decision promptWithheld(String exposed) {
        Decision d = withheldPrompts.get(exposed);
        return d == null ? null : new Decision.Block("prompt_withheld", d.findings());
    }

    private static boolean onlyInstructions(Decision.Block b) {
        return b.findings().stream().filter(f -> f.action() == Action.BLOCK)
                .allMatch(f -> f.control().equals("instruction_injection"));
    }

    /** The declaration with every description and title removed: strip mode's answer to instructions. */
    static ObjectNode stripped(ObjectNode decl) {
        ObjectNode copy = decl.deepCopy();
        copy.remove("description");
        if (copy.path("annotations") instanceof ObjectNode a) {
            a.remove("title");
        }
        strip(copy.get("inputSchema"));
        strip(copy.get("outputSchema"));
        return copy;
    }

    /** Keywords whose value maps names to schemas: a property called "description" is not a description. */
    private static final java.util.Set<String> SCHEMA_MAPS = java.util.Set.of("properties", "patternProperties",
            "$defs", "definitions", "dependentSchemas");

    private static void strip(JsonNode schema) {
        if (schema instanceof ObjectNode o) {
            o.remove("description");
            o.remove("title");
            o.remove("examples");
            o.fields().forEachRemaining(e -> {
                if (SCHEMA_MAPS.contains(e.getKey()) && e.getValue() instanceof ObjectNode named) {
                    named.elements().forEachRemaining(PolicySession::strip);
                } else {
                    strip(e.getValue());
                }
            });
        } else if (schema instanceof ArrayNode a) {
            a.elements().forEachRemaining(PolicySession::strip);
        }
    }

    public Declared declared(String exposed) {
        return declared.get(exposed);
    }

    /** The request stage for a tools/call; {@code arguments} are the restored arguments. */
    public Decision request(String exposed, String upstream, String upstreamTool, JsonNode arguments) {
        JsonNode args = arguments == null ? JsonNodeFactory.instance.objectNode() : arguments.deepCopy();
        Decision hidden = withheld.get(exposed);
        if (hidden != null) {
            // a changed definition says so: the operator's next step differs (pins accept)
            String reason = hidden instanceof Decision.Block b && b.reason().equals("tool_quarantined")
                    ? "tool_quarantined" : "tool_withheld";
            Decision d = new Decision.Block(reason, hidden.findings());
            policy.traceOnly(new Subject(Stage.REQUEST, sessionId, upstream, exposed, upstreamTool, null, args, false),
                    digest, d);
            return d;
        }
        Declared decl = declared.get(exposed);
        Decision d = policy.decide(new Subject(Stage.REQUEST, sessionId, upstream, exposed, upstreamTool,
                decl == null ? null : decl.declaration(), args, false), digest);
        if (d instanceof Decision.RequireApproval held && arguments != null) {
            // the fingerprint of the call as the client sent it, not of a copy a control redacted
            return new Decision.RequireApproval(PolicyEngine.fingerprint(exposed, arguments), held.findings());
        }
        return d;
    }

    /**
     * A call to a name its upstream does not declare: refused before any control runs ({@code unknown_tool}, as
     * without a policy), and recorded like a decision of the request stage.
     */
    public void unknownTool(String exposed, String upstream, String upstreamTool, JsonNode arguments) {
        JsonNode args = arguments == null ? JsonNodeFactory.instance.objectNode() : arguments;
        policy.traceOnly(new Subject(Stage.REQUEST, sessionId, upstream, exposed, upstreamTool, null, args, false),
                digest, new Decision.Block("unknown_tool", java.util.List.of()));
    }

    /** The response stage: {@code payload} is the result, or the error object when {@code error}. */
    public Decision response(String exposed, String upstream, String upstreamTool, JsonNode payload, boolean error) {
        Declared decl = exposed == null ? null : declared.get(exposed);
        return policy.decide(new Subject(Stage.RESPONSE, sessionId, upstream, exposed, upstreamTool,
                decl == null ? null : decl.declaration(), payload.deepCopy(), error), digest);
    }

    /**
     * The response stage for a result the upstream link dropped unread for its size: the budget's
     * {@code output_too_large} when it is over {@code output_bytes}, recorded like any decision; null otherwise.
     */
    public Decision oversized(String exposed, String upstream, String upstreamTool, long bytes) {
        return policy.oversized(new Subject(Stage.RESPONSE, sessionId, upstream, exposed, upstreamTool, null, null, false),
                digest, bytes);
    }

    /** The response stage of a prompts/get (the messages of a prompt the user chose). */
    public Decision promptResult(String prompt, String upstream, String upstreamPrompt, JsonNode payload, boolean error) {
        return policy.decidePromptResult(new Subject(Stage.RESPONSE, sessionId, upstream, prompt, upstreamPrompt, null,
                payload.deepCopy(), error), digest);
    }

    public void close() {
        policy.closed(sessionId);
    }
}
