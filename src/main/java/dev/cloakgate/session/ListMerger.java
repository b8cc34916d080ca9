package dev.cloakgate.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.cloak.Cloak;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.upstream.Upstream;
import dev.cloakgate.upstream.UpstreamException;

/**
 * List methods over several upstreams: fan out, prefix names, index resources, merge in the tenant's upstream
 * order. With several upstreams the cursor is a session-held handle naming which upstreams still have pages
 * and their own cursors; with one upstream its cursor passes unchanged (the drop-in case).
 */
final class ListMerger {
    private static final Logger LOG = Logger.getLogger(ListMerger.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Pages followed per upstream when the gateway lists on its own to find a resource. */
    private static final int INDEX_PAGES = 20;

    enum Kind {
        TOOLS("tools/list", "tools", "tools", true),
        PROMPTS("prompts/list", "prompts", "prompts", true),
        RESOURCES("resources/list", "resources", "resources", false),
        TEMPLATES("resources/templates/list", "resourceTemplates", "resources", false),
        TASKS("tasks/list", "tasks", "tasks", false);

        final String method;
        final String items;
        final String capability;
        final boolean named;

        Kind(String method, String items, String capability, boolean named) {
            this.method = method;
            this.items = items;
            this.capability = capability;
            this.named = named;
        }
    }

    private final Map<String, Upstream> upstreams;
    private final Namespacing names;
    private final ResourceIndex resources;
    private final TaskIndex tasks;
    private final CursorTable cursors;
    private final Cloak cloak;
    private final PolicySession policy;
    private final ToolIndex toolIndex = new ToolIndex();
    /** Which exposed tool names the session's principal may see (issue 10); the others are left out of tools/list. */
    private final java.util.function.Predicate<String> visibleTool;

    /**
     * @param cloak cloaks listed resources and templates (a listing is data); null when the tenant does not
     * @param policy judges tool declarations before they are relayed; null when the tenant has no policy
     * @param visibleTool whether the session's principal may see a tool of this exposed name
     */
    ListMerger(Map<String, Upstream> upstreams, Namespacing names, ResourceIndex resources, TaskIndex tasks,
            CursorTable cursors, Cloak cloak, PolicySession policy, java.util.function.Predicate<String> visibleTool) {
        this.policy = policy;
        this.visibleTool = visibleTool;
        this.upstreams = upstreams;
        this.names = names;
        this.resources = resources;
        this.tasks = tasks;
        this.cursors = cursors;
        this.cloak = cloak;
    }

    CompletableFuture<ObjectNode> list(ObjectNode request, Kind kind) {
        JsonNode clientId = request.get("id");
        ObjectNode params = Messages.params(request);
        JsonNode cursorNode = params.get("cursor");
        boolean single = upstreams.size() == 1;

        Map<String, String> targets = new LinkedHashMap<>();
        if (cursorNode == null || cursorNode.isNull()) {
            for (Upstream u : upstreams.values()) {
                if (offers(u, kind)) {
                    targets.put(u.name(), null);
                }
            }
        } else if (!cursorNode.isTextual()) {
            return invalidCursor(clientId);
        } else if (single) {
            // the upstream's own cursor, as the client may have received it cloaked
            targets.put(upstreams.keySet().iterator().next(),
                    cloak == null ? cursorNode.textValue() : cloak.peek(cursorNode.textValue()));
        } else {
            Map<String, String> state = cursors.redeem(cursorNode.textValue());
            if (state == null) {
                return invalidCursor(clientId);
            }
            targets.putAll(state);
        }
        if (targets.isEmpty()) {
            ObjectNode empty = F.objectNode();
            empty.putArray(kind.items);
            return CompletableFuture.completedFuture(Messages.result(clientId, empty));
        }

        Map<String, CompletableFuture<ObjectNode>> calls = new LinkedHashMap<>();
        targets.forEach((name, cursor) -> {
            ObjectNode p = params.deepCopy();
            p.remove("cursor");
            if (cursor != null) {
                p.put("cursor", cursor);
            }
            calls.put(name, upstreams.get(name).call(kind.method, p, null).response());
        });
        return CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new))
                .handle((v, t) -> merge(clientId, kind, calls, single, targets));
    }

    private ObjectNode merge(JsonNode clientId, Kind kind, Map<String, CompletableFuture<ObjectNode>> calls,
            boolean single, Map<String, String> sentCursors) {
        ObjectNode merged = null;
        ArrayNode items = F.arrayNode();
        Map<String, String> next = new LinkedHashMap<>();
        ObjectNode firstFailure = null;
        if (kind == Kind.TOOLS && policy != null) {
            // every upstream's names first: shadowing compares each declaration with the others
            calls.forEach((name, c) -> {
                ObjectNode r = c.isCompletedExceptionally() ? null : c.join();
                if (r != null && !r.has("error")) {
                    policy.observe(name, r.path("result").path("tools"));
                }
            });
        }
        for (Map.Entry<String, CompletableFuture<ObjectNode>> e : calls.entrySet()) {
            String name = e.getKey();
            CompletableFuture<ObjectNode> c = e.getValue();
            ObjectNode response = c.isCompletedExceptionally() ? null : c.join();
            if (response == null || response.has("error")) {
                // issue 14: an error is the upstream's text, never a declaration, so it is cloaked whatever the list;
                // and only it is handed on, not members the upstream put beside it
                ObjectNode failure = response != null ? failure(clientId, name, kind, response.get("error"))
                        : GatewaySession.errorFor(clientId, c.handle((r, x) -> x).join());
                if (firstFailure == null) {
                    firstFailure = failure;
                }
                LOG.infof("%s: upstream %s left out of the merged list (%s)", kind.method, name,
                        failure.path("error").path("data").path("reason").asText("error"));
                continue;
            }
            JsonNode result = response.path("result");
            if (kind == Kind.TOOLS && sentCursors.get(name) == null && !result.has("nextCursor")) {
                // a first page that is the last: every name the upstream declares, before any is withheld
                toolIndex.listed(name, namesOf(result.path("tools")));
            }
            if (kind == Kind.TOOLS && policy != null && result instanceof ObjectNode ro) {
                ObjectNode judged = ro.deepCopy();
                judged.set("tools", policy.relay(name, ro.path("tools"), raw -> names.expose(name, raw)));
                result = judged;
            } else if (kind == Kind.PROMPTS && policy != null && result instanceof ObjectNode ro) {
                ObjectNode judged = ro.deepCopy();
                judged.set("prompts", policy.relayPrompts(name, ro.path("prompts"), raw -> names.expose(name, raw)));
                result = judged;
            }
            if (kind == Kind.TOOLS) {
                result = visible(name, result);
            }
            index(name, kind, result.path(kind.items));
            result = shown(name, kind, result);
            if (single) {
                // one upstream: its result as it is, cursor included; only names get their prefix
                return Messages.result(clientId, kind.named ? renamed(name, kind, result) : result);
            }
            if (merged == null && result instanceof ObjectNode ro) {
                merged = ro.deepCopy();
            }
            for (JsonNode item : result.path(kind.items)) {
                items.add(exposed(name, kind, item));
            }
            if (result.path("nextCursor").isTextual()) {
                next.put(name, result.path("nextCursor").textValue());
            }
        }
        if (merged == null) {
            return firstFailure;
        }
        merged.set(kind.items, items);
        merged.remove("nextCursor");
        if (!next.isEmpty()) {
            merged.put("nextCursor", cursors.issue(next));
        }
        return Messages.result(clientId, merged);
    }

    /** The tools of one upstream's page that the session's principal may see, as the upstream declared them. */
    private JsonNode visible(String upstream, JsonNode result) {
        if (!(result instanceof ObjectNode ro) || !result.path("tools").isArray()) {
            return result;
        }
        ArrayNode kept = F.arrayNode();
        for (JsonNode tool : result.path("tools")) {
            if (tool.path("name").isTextual() && visibleTool.test(names.expose(upstream, tool.path("name").textValue()))) {
                kept.add(tool);
            }
        }
        if (kept.size() == result.path("tools").size()) {
            return result;
        }
        ObjectNode copy = ro.deepCopy();
        copy.set("tools", kept);
        return copy;
    }

    /** The answer to the client when one upstream's listing failed: its error only, cloaked (a copy). */
    private ObjectNode failure(JsonNode clientId, String upstream, Kind kind, JsonNode error) {
        ObjectNode out = F.objectNode();
        out.put("jsonrpc", "2.0");
        out.set("id", clientId);
        out.set("error", cloak == null ? error : cloak.cloaked(upstream, kind.method, error.deepCopy()));
        return out;
    }

    /**
     * What the client may see of an upstream's list result, for a sanitizing tenant. Resource lists and templates
     * are data (file names carry names and addresses) and are cloaked. Tool and prompt declarations are contracts
     * and are not cloaked, only escaped: a copy, since the policy keeps the declarations it judged (schemas for
     * arguments, pins) as the server wrote them.
     */
    private JsonNode shown(String upstream, Kind kind, JsonNode payload) {
        if (cloak == null) {
            return payload;
        }
        if (!kind.named) {
            cloak.toAgent(upstream, kind.method, payload);
            return payload;
        }
        JsonNode copy = payload.deepCopy();
        cloak.declared(upstream, copy);
        return copy;
    }

    private JsonNode renamed(String upstream, Kind kind, JsonNode result) {
        if (!(result instanceof ObjectNode ro) || !result.path(kind.items).isArray()) {
            return result;
        }
        ObjectNode copy = ro.deepCopy();
        ArrayNode items = F.arrayNode();
        for (JsonNode item : result.path(kind.items)) {
            items.add(exposed(upstream, kind, item));
        }
        copy.set(kind.items, items);
        return copy;
    }

    private JsonNode exposed(String upstream, Kind kind, JsonNode item) {
        if (!kind.named || !(item instanceof ObjectNode o) || !o.path("name").isTextual()) {
            return item;
        }
        ObjectNode copy = o.deepCopy();
        copy.put("name", names.expose(upstream, o.path("name").textValue()));
        return copy;
    }

    private void index(String upstream, Kind kind, JsonNode items) {
        for (JsonNode item : items) {
            switch (kind) {
                case TOOLS, PROMPTS -> {
                    // names carry no routing state beyond the prefix
                }
                case RESOURCES -> {
                    if (item.path("uri").isTextual()) {
                        resources.addResource(upstream, item.path("uri").textValue());
                    }
                }
                case TEMPLATES -> {
                    if (item.path("uriTemplate").isTextual()) {
                        resources.addTemplate(upstream, item.path("uriTemplate").textValue());
                    }
                }
                case TASKS -> {
                    if (item.path("taskId").isTextual()) {
                        tasks.record(item.path("taskId").textValue(), upstream);
                    }
                }
            }
        }
    }

    /**
     * What a call to a tool of {@code target} needs first: the names it declared (listing it, and every other
     * upstream not yet listed, when this session has no complete listing of it), or the failure that kept it from
     * saying.
     */
    CompletableFuture<ToolIndex.Lookup> tools(Upstream target) {
        Set<String> known = toolIndex.names(target.name());
        if (known != null) {
            return CompletableFuture.completedFuture(new ToolIndex.Lookup(known, null));
        }
        if (!offers(target, Kind.TOOLS)) {
            // its handshake declared no tools
            return CompletableFuture.completedFuture(new ToolIndex.Lookup(Set.of(), null));
        }
        return discoverTools().thenApply(failures -> {
            Set<String> names = toolIndex.names(target.name());
            return names != null ? new ToolIndex.Lookup(names, null)
                    : new ToolIndex.Lookup(null, failures.get(target.name()));
        });
    }

    /** The upstream said its tool list changed: the next call lists it again. */
    void toolsChanged(String upstream) {
        toolIndex.forget(upstream);
        if (policy != null) {
            policy.invalidate(upstream);
        }
    }

    /**
     * Lists the tools of every tool-capable upstream not yet completely listed in this session (a bounded number
     * of pages) and, with a policy, puts them through discovery, without relaying anything: what a call needs when
     * the session never listed, or when an upstream said its list changed. Completes with the failures of the
     * upstreams that could not be listed.
     */
    CompletableFuture<Map<String, UpstreamException>> discoverTools() {
        Map<String, CompletableFuture<Pages>> pages = new LinkedHashMap<>();
        for (Upstream u : upstreams.values()) {
            if (offers(u, Kind.TOOLS) && toolIndex.names(u.name()) == null) {
                pages.put(u.name(), toolPages(u, null, INDEX_PAGES, new ArrayList<>()));
            }
        }
        return CompletableFuture.allOf(pages.values().toArray(CompletableFuture[]::new)).handle((v, t) -> {
            Map<String, ArrayNode> tools = new LinkedHashMap<>();
            Map<String, UpstreamException> failures = new LinkedHashMap<>();
            pages.forEach((name, f) -> {
                if (f.isCompletedExceptionally()) {
                    Throwable x = f.handle((r, e) -> e).join();
                    while (x instanceof java.util.concurrent.CompletionException && x.getCause() != null) {
                        x = x.getCause();
                    }
                    if (x instanceof UpstreamException u) {
                        failures.put(name, u);
                    }
                    return;
                }
                Pages p = f.join();
                ArrayNode all = F.arrayNode();
                p.tools().forEach(all::add);
                tools.put(name, all);
                if (p.complete()) {
                    toolIndex.listed(name, namesOf(all));
                }
            });
            if (policy != null) {
                tools.forEach(policy::observe);
                tools.forEach((name, all) -> policy.relay(name, all, raw -> names.expose(name, raw)));
            }
            if (cloak != null) {
                // never shown, but a client may call with a default it listed earlier: remember what was declared
                tools.forEach((name, all) -> cloak.declared(name, all.deepCopy()));
            }
            return failures;
        });
    }

    /** Issue 11: every declaration of one upstream's tools (every page), failed when they could not all be listed. */
    CompletableFuture<List<JsonNode>> declarations(Upstream u) {
        return toolPages(u, null, INDEX_PAGES, new ArrayList<>()).thenApply(p -> {
            if (!p.complete()) {
                throw new IllegalStateException("the tools of " + u.name() + " could not be listed in full");
            }
            return p.tools();
        });
    }

    /** Pages of one upstream's tools; complete when the last page was reached and none was an error. */
    private record Pages(List<JsonNode> tools, boolean complete) {
    }

    private CompletableFuture<Pages> toolPages(Upstream u, String cursor, int pagesLeft, List<JsonNode> acc) {
        ObjectNode p = F.objectNode();
        if (cursor != null) {
            p.put("cursor", cursor);
        }
        return u.call(Kind.TOOLS.method, p, null).response().thenCompose(r -> {
            JsonNode result = r.path("result");
            result.path("tools").forEach(acc::add);
            boolean more = result.path("nextCursor").isTextual();
            if (pagesLeft > 1 && more) {
                return toolPages(u, result.path("nextCursor").textValue(), pagesLeft - 1, acc);
            }
            return CompletableFuture.completedFuture(new Pages(acc, !more && !r.has("error")));
        });
    }

    private static Set<String> namesOf(JsonNode tools) {
        Set<String> out = new java.util.HashSet<>();
        for (JsonNode t : tools) {
            if (t.path("name").isTextual()) {
                out.add(t.path("name").textValue());
            }
        }
        return out;
    }

    /** Lists resources and templates of every resource-capable upstream (a bounded number of pages). */
    CompletableFuture<Void> indexAll() {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Upstream u : upstreams.values()) {
            if (offers(u, Kind.RESOURCES)) {
                all.add(indexPages(u, Kind.RESOURCES, null, INDEX_PAGES));
                all.add(indexPages(u, Kind.TEMPLATES, null, INDEX_PAGES));
            }
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).exceptionally(t -> null);
    }

    private CompletableFuture<Void> indexPages(Upstream u, Kind kind, String cursor, int pagesLeft) {
        ObjectNode p = F.objectNode();
        if (cursor != null) {
            p.put("cursor", cursor);
        }
        return u.call(kind.method, p, null).response().thenCompose(r -> {
            JsonNode result = r.path("result");
            index(u.name(), kind, result.path(kind.items));
            if (pagesLeft > 1 && result.path("nextCursor").isTextual()) {
                return indexPages(u, kind, result.path("nextCursor").textValue(), pagesLeft - 1);
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    /** Upstreams whose handshake advertised the capability; one that never came up is tried (it may now). */
    private static boolean offers(Upstream u, Kind kind) {
        ObjectNode init = u.initializeResult();
        if (init == null) {
            return true;
        }
        JsonNode caps = init.path("capabilities");
        if (kind == Kind.TASKS) {
            return caps.path("tasks").has("list");
        }
        return caps.has(kind.capability);
    }

    private static CompletableFuture<ObjectNode> invalidCursor(JsonNode clientId) {
        return CompletableFuture.completedFuture(RpcError.of(ErrorCodes.INVALID_PARAMS, "invalid_cursor",
                "unknown or expired cursor; list again without one").toResponse(clientId));
    }
}
