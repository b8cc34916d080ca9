package dev.cloakgate.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.auth.Principal;
import dev.cloakgate.chain.Call;
import dev.cloakgate.chain.Reply;
import dev.cloakgate.cloak.Cloak;
import dev.cloakgate.cloak.Restoration;
import dev.cloakgate.cloak.Tokens;
import dev.cloakgate.evidence.LogTag;
import dev.cloakgate.gate.ReleaseManifest;
import dev.cloakgate.gate.SessionTask;
import dev.cloakgate.gate.TenantGate;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.jsonrpc.Messages;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.jsonrpc.RpcException;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.upstream.RequestObserver;
import dev.cloakgate.upstream.Upstream;
import dev.cloakgate.upstream.UpstreamException;

/**
 * One client session (one {@code Mcp-Session-Id}) in front of all of a tenant's upstreams. It remaps every id
 * in both directions, routes by namespace and resource index, and sends each message the upstreams originate
 * to the client stream it belongs to. It knows nothing of HTTP: the front hands it parsed messages and streams.
 */
public final class GatewaySession implements Upstream.Listener {
    private static final Logger LOG = Logger.getLogger(GatewaySession.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Requests an upstream may make of the client; anything else is refused, never guessed. */
    private static final Set<String> SERVER_REQUESTS = Set.of("sampling/createMessage", "elicitation/create",
            "roots/list", "ping", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel");

    private final String id;
    private final TenantConfig tenant;
    private final JsonCodec codec;
    private final Map<String, Upstream> upstreams = new LinkedHashMap<>();
    private final Namespacing names;
    private final ResourceIndex resources = new ResourceIndex(10_000);
    private final TaskIndex tasks = new TaskIndex(10_000);
    private final SessionStreams streams;
    private final ServerRequests serverRequests = new ServerRequests();
    private final ProgressTokens progress = new ProgressTokens();
    private final Map<JsonNode, ClientCall> inflight = new LinkedHashMap<>();
    /** Issue 11: per upstream the release binds a toolsDigest for, whether its declarations matched (null) or not. */
    private final Map<String, CompletableFuture<RpcError>> toolsChecked = new java.util.concurrent.ConcurrentHashMap<>();
    /** Issue 11: calls held for an approval (not sent yet), so that a client's cancel reaches them too. */
    private final Map<JsonNode, ClientCall> held = new LinkedHashMap<>();
    private final ListMerger lists;
    private final String gatewayVersion;
    /** Null when the tenant does not sanitize. */
    private final Cloak cloak;
    /** The members of a message that are the envelope's own, never cloaked: the rest is what the upstream says. */
    private static final java.util.Set<String> ENVELOPE = java.util.Set.of("jsonrpc", "id", "method");
    private final PolicySession policy;
    private final CallChains chains;
    /** Issue 11: the tenant's gate (null: none) and this session's trusted task context. */
    private final TenantGate gate;
    private final SessionTask task = new SessionTask();
    /** How logs name this session: never the id itself (a bearer handle). */
    private final String logTag;
    /** Who opened the session (issue 10): only the same principal may use it, and it sees only its tools. */
    private final Principal principal;
    private final List<Runnable> onClose = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile String protocolVersion;
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile boolean closed;

    /**
     * @param upstreamFactory builds the session's {@link Upstream} for each configured server, with this listener
     * @param calls told of each tools/call forwarded without a policy
     */
    public GatewaySession(String id, TenantConfig tenant, String gatewayVersion, JsonCodec codec,
            SessionStreams streams, UpstreamFactory upstreamFactory, Cloak cloak, PolicySession policy, CallLog calls,
            Principal principal) {
        this(id, tenant, gatewayVersion, codec, streams, upstreamFactory, cloak, policy, calls, principal, null);
    }

    /** @param gate the tenant's action gate (issue 11), or null when it has none */
    public GatewaySession(String id, TenantConfig tenant, String gatewayVersion, JsonCodec codec,
            SessionStreams streams, UpstreamFactory upstreamFactory, Cloak cloak, PolicySession policy, CallLog calls,
            Principal principal, TenantGate gate) {
        this.gate = gate;
        this.chains = new CallChains(id, cloak, policy, calls, gate == null ? null
                : new CallChains.Gate(gate, task, gate.record(id), tenant.name(), LogTag.of(id)));
        this.principal = principal;
        this.id = id;
        this.logTag = LogTag.of(id);
        this.gatewayVersion = gatewayVersion;
        this.cloak = cloak;
        this.policy = policy;
        this.tenant = tenant;
        this.codec = codec;
        this.streams = streams;
        for (var cfg : tenant.upstreams().values()) {
            upstreams.put(cfg.name(), upstreamFactory.create(cfg, tenant.name() + "/" + cfg.name(), this));
        }
        this.names = new Namespacing(tenant.namespace(), upstreams.keySet());
        java.util.function.Predicate<String> visible = principal::mayCall;
        if (gate != null && !gate.warnOnly()) {
            // issue 11: a tool the release does not declare would only be refused: the model is not shown it
            visible = visible.and(gate.manifest()::declares);
        }
        this.lists = new ListMerger(upstreams, names, resources, tasks, new CursorTable(256), cloak, policy, visible);
    }

    /** Builds one upstream for this session; the session is its listener. */
    @FunctionalInterface
    public interface UpstreamFactory {
        Upstream create(dev.cloakgate.tenant.UpstreamConfig config, String label, Upstream.Listener listener);
    }

    public String id() {
        return id;
    }

    public TenantConfig tenant() {
        return tenant;
    }

    /** The principal that opened this session. */
    public Principal principal() {
        return principal;
    }

    /** Runs once when the session ends (for whatever reason): releases what was held for it. */
    public void whenClosed(Runnable r) {
        onClose.add(r);
    }

    public String protocolVersion() {
        return protocolVersion;
    }

    public SessionStreams streams() {
        return streams;
    }

    public Map<String, Upstream> upstreams() {
        return java.util.Collections.unmodifiableMap(upstreams);
    }

    /** Since the last traffic, or the last time the client (re)opened a stream, whichever is later. */
    public long idleNanos() {
        long now = System.nanoTime();
        return Math.min(now - lastActivityNanos, now - streams.lastAttachNanos());
    }

    public synchronized boolean busy() {
        return !inflight.isEmpty() || streams.liveConnections() > 0;
    }

    /** A request of the client is being answered. */
    public synchronized boolean hasInflight() {
        return !inflight.isEmpty();
    }

    public boolean closed() {
        return closed;
    }

    /** Runs the handshake with every upstream; completes with the response to send (result or error). */
    public CompletableFuture<ObjectNode> initialize(ObjectNode request) {
        touch();
        Handshake handshake = new Handshake(upstreams, gatewayVersion, cloak == null ? (u, n) -> { } : cloak::declared);
        return handshake.run(Messages.params(request)).handle((result, err) -> {
            if (err != null) {
                return errorFor(request.get("id"), err);
            }
            RpcError impostor = gate == null ? null : impostor();
            if (impostor != null) {
                return impostor.toResponse(request.get("id"));
            }
            protocolVersion = result.path("protocolVersion").asText();
            return Messages.result(request.get("id"), result);
        });
    }

    /** The session's trusted task context (issue 11): set at initialize from the signed header, or by an operator. */
    public SessionTask task() {
        return task;
    }

    /** The tenant's action gate this session was made with, or null. */
    public TenantGate gate() {
        return gate;
    }

    /**
     * Issue 11, beyond the seed: an upstream the release binds ({@code spec.mcpServers}) must present the identity it
     * names. Null when every bound upstream that answered did; else the refusal naming the first that did not.
     */
    private RpcError impostor() {
        for (var e : gate.manifest().mcpServers().entrySet()) {
            Upstream u = upstreams.get(e.getKey());
            ObjectNode init = u == null ? null : u.initializeResult();
            if (init == null) {
                continue; // not configured here (refused at load) or down: its calls fail on their own
            }
            ReleaseManifest.ServerIdentity want = e.getValue();
            JsonNode info = init.path("serverInfo");
            String name = info.path("name").asText(null);
            String version = info.path("version").asText(null);
            if (!want.name().equals(name) || want.version() != null && !want.version().equals(version)) {
                LOG.warnf("session %s: upstream %s presented another identity than the release binds", logTag, e.getKey());
                return RpcError.of(ErrorCodes.REFUSED, "upstream_identity_mismatch", "upstream '" + e.getKey()
                        + "' presents itself as another server than the release binds (spec.mcpServers."
                        + e.getKey() + ".serverInfo)").with("upstream", e.getKey()).with("release", gate.releaseHash());
            }
        }
        return null;
    }

    /**
     * Issue 11: an upstream whose tools the release binds ({@code spec.mcpServers.<u>.toolsDigest}) must declare
     * exactly those before its first call in this session (tools/list may not be sent before the client's
     * initialized, so this is not at initialize) and again after it says its list changed. Null when they match.
     */
    private CompletableFuture<RpcError> toolsBound(Upstream target) {
        ReleaseManifest.ServerIdentity want = gate == null ? null : gate.manifest().mcpServers().get(target.name());
        if (want == null || want.toolsDigest() == null) {
            return CompletableFuture.completedFuture(null);
        }
        return toolsChecked.computeIfAbsent(target.name(), name -> lists.declarations(target).handle((tools, err) -> {
            String got = null;
            if (err == null && tools != null) {
                try {
                    got = ReleaseManifest.toolsDigest(tools);
                } catch (IllegalArgumentException malformed) {
                    got = null;
                }
            }
            if (want.toolsDigest().equals(got)) {
                return null;
            }
            toolsChecked.remove(name); // listed again at the next call: a transient failure is not a verdict
            LOG.warnf("session %s: upstream %s declares other tools than the release binds", logTag, name);
            return RpcError.of(ErrorCodes.REFUSED, "upstream_identity_mismatch", "upstream '" + name + "' declares other"
                    + " tools than the release binds (spec.mcpServers." + name + ".toolsDigest)"
                    + (got == null ? ": its tools could not be listed in full" : ""))
                    .with("upstream", name).with("release", gate.releaseHash());
        }));
    }

    /**
     * Handles a client request. Completes with the response, or with null when the client cancelled it (no
     * response is owed then).
     */
    public CompletableFuture<ObjectNode> request(ObjectNode request, ClientStream stream) {
        touch();
        JsonNode clientId = request.get("id");
        String method = Messages.method(request);
        CompletableFuture<ObjectNode> answer;
        try {
            answer = switch (method) {
                case "ping" -> done(Messages.result(clientId, F.objectNode()));
                case "initialize" -> throw RpcError.of(ErrorCodes.INVALID_REQUEST, "already_initialized",
                        "this session is already initialized; start a new session without Mcp-Session-Id").asException();
                case "tools/list" -> lists.list(request, ListMerger.Kind.TOOLS);
                case "prompts/list" -> lists.list(request, ListMerger.Kind.PROMPTS);
                case "resources/list" -> lists.list(request, ListMerger.Kind.RESOURCES);
                case "resources/templates/list" -> lists.list(request, ListMerger.Kind.TEMPLATES);
                case "tasks/list" -> lists.list(request, ListMerger.Kind.TASKS);
                case "tools/call" -> byName(request, stream, "tool");
                case "prompts/get" -> byName(request, stream, "prompt");
                case "resources/read", "resources/subscribe", "resources/unsubscribe" -> byUri(request, stream);
                case "completion/complete" -> completion(request, stream);
                case "logging/setLevel" -> fanOut(request);
                case "tasks/get", "tasks/result", "tasks/cancel" -> byTask(request, stream);
                default -> throw RpcError.of(ErrorCodes.METHOD_NOT_FOUND, "method_not_found",
                        "method not supported by the gateway: " + method).asException();
            };
        } catch (RpcException e) {
            return done(e.error().toResponse(clientId));
        }
        // refusals raised while routing (an unknown resource, an ambiguous one) become error responses
        return answer.handle((r, t) -> t == null ? r : errorFor(clientId, t));
    }

    /** A notification from the client. */
    public void notification(ObjectNode n) {
        touch();
        String method = Messages.method(n);
        ObjectNode params = Messages.params(n);
        switch (method) {
            case "notifications/initialized" -> upstreams.values().forEach(Upstream::clientInitialized);
            case "notifications/cancelled" -> cancelledByClient(params);
            case "notifications/progress" -> progressFromClient(n, params);
            case "notifications/roots/list_changed" -> upstreams.values().forEach(u -> {
                if (u.connected()) {
                    u.send(n.deepCopy());
                }
            });
            default -> LOG.debugf("session %s: dropped client notification %s", logTag, method);
        }
    }

    /** A client's answer to a request an upstream made; goes back under the upstream's own id. */
    public void response(ObjectNode r) {
        touch();
        ServerRequests.Entry e = serverRequests.take(r.get("id"));
        if (e == null) {
            LOG.debugf("session %s: client answered an unknown or finished request", logTag);
            return;
        }
        progress.release(e.progressToken());
        ObjectNode answer = Messages.withId(r, e.upstreamId());
        Restoration restored = Restoration.NONE;
        if (cloak != null) {
            try {
                // sampling and elicitation answers carry what the model wrote: tokens go back as values
                restored = cloak.toUpstream(e.upstream().name(), null, answer.has("result") ? answer.get("result")
                        : answer.get("error"));
            } catch (RpcException refused) {
                answer = refused.error().toResponse(e.upstreamId());
            }
        }
        if (e.upstream().send(answer)) {
            restored.sent();
        }
    }

    /**
     * Answers each call waiting for an upstream with {@code answer} now and tells its upstream it is cancelled;
     * {@code each} hears of each call first. The number of calls.
     */
    int abandonInFlight(RpcError answer, SessionRegistry.AbandonedCall each) {
        List<ClientCall> calls;
        synchronized (this) {
            calls = new ArrayList<>(inflight.values());
        }
        int n = 0;
        for (ClientCall cc : calls) {
            Upstream.Call call = cc.call;
            if (call == null || call.response().isDone()) {
                continue;
            }
            each.abandoned(this, cc.method, cc.upstream.name());
            if (call.response().completeExceptionally(answer.asException())) {
                cc.upstream.cancel(call, answer.reason());
                n++;
            }
        }
        return n;
    }

    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (policy != null) {
            policy.close();
        }
        upstreams.values().forEach(Upstream::close);
        synchronized (this) {
            inflight.clear();
        }
        streams.closeAll();
        onClose.forEach(Runnable::run);
    }

    // ---- toward the upstreams ----

    private CompletableFuture<ObjectNode> byName(ObjectNode request, ClientStream stream, String kind) {
        ObjectNode params = Messages.params(request);
        JsonNode nameNode = params.get("name");
        if (nameNode == null || !nameNode.isTextual()) {
            throw RpcError.of(ErrorCodes.INVALID_PARAMS, "invalid_params", "params.name must be a string").asException();
        }
        Namespacing.Route route = names.route(nameNode.textValue());
        // a tool outside the principal's subset is refused exactly as a name no upstream has (issue 10)
        if (route == null || "tool".equals(kind) && !principal.mayCall(declaredName(nameNode.textValue()))) {
            throw RpcError.of(ErrorCodes.INVALID_PARAMS, "unknown_" + kind,
                    "unknown " + kind + " \"" + nameNode.textValue() + "\"").asException();
        }
        ObjectNode upstreamParams = params.deepCopy();
        upstreamParams.put("name", route.name());
        Upstream target = upstreams.get(route.upstream());
        if ("tool".equals(kind)) {
            // a call before (or without) a listing lists first: a name the upstream does not declare is unknown,
            // an upstream that cannot list is refused with its own failure, and with a policy a tool withheld from
            // a listing this session never saw is still refused and arguments have a schema to meet
            return toolsBound(target).thenCompose(impostor -> impostor != null
                    ? done(impostor.toResponse(request.get("id"))) : lists.tools(target).thenCompose(known -> {
                if (known.failure() != null) {
                    return done(errorFor(request.get("id"), known.failure()));
                }
                if (known.names() != null && !known.names().contains(declaredName(route.name()))) {
                    if (policy != null) {
                        policy.unknownTool(declaredName(nameNode.textValue()), route.upstream(), declaredName(route.name()),
                                params.get("arguments"));
                    }
                    return done(RpcError.of(ErrorCodes.INVALID_PARAMS, "unknown_tool", "unknown tool \""
                            + nameNode.textValue() + "\"").toResponse(request.get("id")));
                }
                return forward(request, target, upstreamParams, stream);
            }));
        }
        return forward(request, target, upstreamParams, stream);
    }

    private CompletableFuture<ObjectNode> byUri(ObjectNode request, ClientStream stream) {
        ObjectNode params = Messages.params(request);
        JsonNode uri = params.get("uri");
        if (uri == null || !uri.isTextual()) {
            throw RpcError.of(ErrorCodes.INVALID_PARAMS, "invalid_params", "params.uri must be a string").asException();
        }
        return resourceUpstream(routable(uri.textValue()))
                .thenCompose(u -> forward(request, u, params.deepCopy(), stream));
    }

    /**
     * A tool or prompt name as the upstream declared it: the client saw token shapes in it escaped. Only for
     * judging and recording; what the upstream receives is restored and unescaped with the rest of the params.
     */
    private String declaredName(String exposed) {
        return cloak == null || exposed == null ? exposed : Tokens.unescape(exposed);
    }

    /** A URI as the upstream wrote it: the client may hold a cloaked one (a path is data). */
    private String routable(String uri) {
        return cloak == null ? uri : cloak.peek(uri);
    }

    private CompletableFuture<ObjectNode> completion(ObjectNode request, ClientStream stream) {
        ObjectNode params = Messages.params(request);
        JsonNode ref = params.path("ref");
        String type = ref.path("type").asText();
        if ("ref/prompt".equals(type)) {
            Namespacing.Route route = names.route(ref.path("name").asText(null));
            if (route == null) {
                throw RpcError.of(ErrorCodes.INVALID_PARAMS, "unknown_prompt",
                        "unknown prompt \"" + ref.path("name").asText() + "\"").asException();
            }
            ObjectNode upstreamParams = params.deepCopy();
            ((ObjectNode) upstreamParams.get("ref")).put("name", route.name());
            return forward(request, upstreams.get(route.upstream()), upstreamParams, stream);
        }
        if ("ref/resource".equals(type) && ref.path("uri").isTextual()) {
            return resourceUpstream(routable(ref.path("uri").textValue()))
                    .thenCompose(u -> forward(request, u, params.deepCopy(), stream));
        }
        throw RpcError.of(ErrorCodes.INVALID_PARAMS, "invalid_params",
                "params.ref must be a ref/prompt with a name or a ref/resource with a uri").asException();
    }

    private CompletableFuture<ObjectNode> byTask(ObjectNode request, ClientStream stream) {
        ObjectNode params = Messages.params(request);
        String taskId = params.path("taskId").asText(null);
        if (taskId == null) {
            throw RpcError.of(ErrorCodes.INVALID_PARAMS, "invalid_params", "params.taskId must be a string").asException();
        }
        String owner = tasks.owner(taskId);
        if (owner == null) {
            List<Upstream> capable = withCapability("tasks");
            if (capable.size() != 1) {
                throw RpcError.of(ErrorCodes.INVALID_PARAMS, "unknown_task", "unknown task id").asException();
            }
            owner = capable.get(0).name();
        }
        return forward(request, upstreams.get(owner), params.deepCopy(), stream);
    }

    /** logging/setLevel goes to every upstream that logs; the client gets one answer. */
    private CompletableFuture<ObjectNode> fanOut(ObjectNode request) {
        JsonNode clientId = request.get("id");
        List<Upstream> targets = withCapability("logging");
        List<CompletableFuture<ObjectNode>> calls = new ArrayList<>();
        for (Upstream u : targets) {
            calls.add(u.call(Messages.method(request), Messages.params(request).deepCopy(), null).response());
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).handle((v, t) -> {
            for (int i = 0; i < calls.size(); i++) {
                CompletableFuture<ObjectNode> c = calls.get(i);
                if (c.isCompletedExceptionally()) {
                    return errorFor(clientId, c.handle((r, x) -> x).join());
                }
                ObjectNode r = c.join();
                if (r.has("error")) {
                    return Messages.errorResponse(clientId, RpcError.of(r.path("error").path("code").asInt(
                            ErrorCodes.INTERNAL_ERROR), "upstream_error", "upstream '" + targets.get(i).name()
                                    + "' refused " + Messages.method(request)).with("upstream", targets.get(i).name()));
                }
            }
            return Messages.result(clientId, F.objectNode());
        });
    }

    private List<Upstream> withCapability(String capability) {
        List<Upstream> out = new ArrayList<>();
        for (Upstream u : upstreams.values()) {
            ObjectNode init = u.initializeResult();
            if (init != null && init.path("capabilities").has(capability)) {
                out.add(u);
            }
        }
        return out;
    }

    /** The upstream serving a URI: the index, else a fresh listing, else the only upstream with resources. */
    private CompletableFuture<Upstream> resourceUpstream(String uri) {
        ResourceIndex.Lookup hit = resources.lookup(uri);
        if (hit.found()) {
            return CompletableFuture.completedFuture(upstreams.get(hit.upstream()));
        }
        if (hit.upstreams().size() > 1) {
            return CompletableFuture.failedFuture(ambiguous(hit));
        }
        return lists.indexAll().thenApply(v -> {
            ResourceIndex.Lookup again = resources.lookup(uri);
            if (again.found()) {
                return upstreams.get(again.upstream());
            }
            if (again.upstreams().size() > 1) {
                throw ambiguous(again);
            }
            List<Upstream> capable = withCapability("resources");
            if (capable.size() == 1) {
                return capable.get(0);
            }
            throw RpcError.of(ErrorCodes.INVALID_PARAMS, "unknown_resource",
                    "no upstream of this tenant lists or templates this resource URI").asException();
        });
    }

    private static RpcException ambiguous(ResourceIndex.Lookup hit) {
        return RpcError.of(ErrorCodes.INVALID_PARAMS, "ambiguous_resource",
                "resource URI is served by more than one upstream: " + String.join(", ", new java.util.TreeSet<>(
                        hit.upstreams()))).asException();
    }

    /**
     * Sends one client request to one upstream through the tenant's chain for its method (restore, policy, cloak:
     * {@link CallChains}), and answers under the client's id; null when the client cancelled it.
     */
    private CompletableFuture<ObjectNode> forward(ObjectNode request, Upstream upstream, ObjectNode params,
            ClientStream stream) {
        JsonNode clientId = request.get("id");
        String method = Messages.method(request);
        String exposed = Messages.params(request).path("name").asText(null);
        Call call = new Call(method, clientId, exposed, declaredName(exposed), upstream.name(), params);
        ClientCall cc = new ClientCall(clientId, method, upstream, stream, Messages.progressToken(request));
        call.whenHeld(() -> {
            // held for an approval: the client waits on a stream (keep-alives flowing), and may cancel it meanwhile
            synchronized (this) {
                held.put(clientId, cc);
            }
            stream.open();
        });
        call.wanted(() -> !closed && !cc.cancelled);
        return chains.of(method).run(call, c -> send(c, cc)).handle((reply, err) -> {
            synchronized (this) {
                held.remove(clientId, cc);
            }
            if (cc.cancelled) {
                return null;
            }
            if (err != null) {
                return errorFor(clientId, err);
            }
            ObjectNode out = F.objectNode();
            out.put("jsonrpc", "2.0");
            out.set("id", clientId);
            if (reply.isError()) {
                out.set("error", reply.response().get("error"));
            } else {
                out.set("result", reply.response().get("result"));
            }
            return out;
        });
    }

    /**
     * The end of every chain: sends the call under a fresh upstream id with its progress token replaced, and tracks
     * it in flight until its answer. Messages the upstream ties to it go to the request's stream.
     */
    private CompletableFuture<Reply> send(Call call, ClientCall cc) {
        JsonNode clientId = call.clientId();
        Upstream upstream = cc.upstream;
        ObjectNode params = call.params();
        synchronized (this) {
            if (inflight.containsKey(clientId)) {
                return CompletableFuture.completedFuture(call.refusal(RpcError.of(ErrorCodes.INVALID_REQUEST,
                        "duplicate_id", "a request with this id is already in flight in this session")));
            }
            inflight.put(clientId, cc);
        }
        if (cc.clientProgressToken != null) {
            cc.gatewayProgressToken = progress.forClientCall(cc);
            ((ObjectNode) params.get("_meta")).set("progressToken", cc.gatewayProgressToken);
        }
        Upstream.Call sent = upstream.call(call.method(), params, new RequestObserver() {
            @Override
            public void related(ObjectNode m) {
                fromUpstream(upstream, m, cc);
            }

            @Override
            public void streaming() {
                // the answer will take a while and arrive later: stream to the client so it can resume too
                cc.stream.open();
            }
        });
        cc.call = sent;
        // evidence of what the call carries, only once it went out: a refusal before or a link that never took it
        // (down, at its limit) disclosed nothing
        sent.sent().thenRun(call::markSent);
        return sent.response().handle((response, err) -> {
            synchronized (this) {
                inflight.remove(clientId);
            }
            progress.release(cc.gatewayProgressToken);
            touch();
            if (cc.cancelled) {
                // no answer is owed: no stage judges or cloaks it
                throw new CancelledByClient();
            }
            if (err != null) {
                throw err instanceof CompletionException c ? c : new CompletionException(err);
            }
            observe(upstream, call.method(), response);
            return Reply.upstream(response);
        });
    }

    /** Learns routing facts from results: resource links and embedded resources, task ids. */
    private void observe(Upstream upstream, String method, ObjectNode response) {
        JsonNode result = response.get("result");
        if (result == null) {
            return;
        }
        if (result.path("task").path("taskId").isTextual()) {
            tasks.record(result.path("task").path("taskId").textValue(), upstream.name());
        }
        if ("tools/call".equals(method) || "prompts/get".equals(method)) {
            for (JsonNode block : contentBlocks(result, method)) {
                String type = block.path("type").asText();
                if ("resource_link".equals(type) && block.path("uri").isTextual()) {
                    resources.addResource(upstream.name(), block.path("uri").textValue());
                } else if ("resource".equals(type) && block.path("resource").path("uri").isTextual()) {
                    resources.addResource(upstream.name(), block.path("resource").path("uri").textValue());
                }
            }
        }
    }

    private static List<JsonNode> contentBlocks(JsonNode result, String method) {
        List<JsonNode> out = new ArrayList<>();
        if ("tools/call".equals(method)) {
            result.path("content").forEach(out::add);
        } else {
            result.path("messages").forEach(m -> out.add(m.path("content")));
        }
        return out;
    }

    private void cancelledByClient(ObjectNode params) {
        JsonNode requestId = params.get("requestId");
        ClientCall cc;
        synchronized (this) {
            cc = requestId == null ? null : inflight.get(requestId);
            if (cc == null && requestId != null) {
                cc = held.get(requestId); // issue 11: held for an approval, not sent: it must never be
            }
        }
        if (cc == null) {
            return;
        }
        cc.cancelled = true;
        Upstream.Call call = cc.call;
        if (call != null) {
            cc.upstream.cancel(call, params.path("reason").asText(null));
            // nobody waits for an answer to a cancelled request; free its slot now
            call.response().completeExceptionally(new CancelledByClient());
        }
    }

    private void progressFromClient(ObjectNode n, ObjectNode params) {
        ProgressTokens.UpstreamToken t = progress.upstreamToken(params.get("progressToken"));
        if (t != null) {
            ObjectNode copy = n.deepCopy();
            ((ObjectNode) copy.get("params")).set("progressToken", t.token());
            t.upstream().send(copy);
        }
    }

    // ---- toward the client ----

    @Override
    public void onMessage(Upstream from, ObjectNode message) {
        fromUpstream(from, message, null);
    }

    @Override
    public void onLinkLost(Upstream from, UpstreamException why) {
        LOG.infof("session %s: upstream %s link lost (%s)", logTag, from.name(), why.reason().code());
        serverRequests.forget(from);
    }

    /** A request or notification an upstream sent; {@code related} is the client call it belongs to, if known. */
    private void fromUpstream(Upstream from, ObjectNode m, ClientCall related) {
        if (closed) {
            return;
        }
        String method = Messages.method(m);
        if (Messages.isRequest(m)) {
            if (!SERVER_REQUESTS.contains(method)) {
                from.send(RpcError.of(ErrorCodes.METHOD_NOT_FOUND, "method not supported by the gateway: " + method)
                        .toResponse(m.get("id")));
                return;
            }
            if ("roots/list".equals(method) && tenant.policy() != null && tenant.policy().fixesPathBase(from.name())) {
                // the client's roots would become this upstream's directories, and so the base its relative paths
                // resolve against; path_sandbox judges them against the base the tenant declared
                LOG.infof("session %s: roots/list from upstream %s withheld (policy.path_base fixes its base)", logTag,
                        from.name());
                from.send(RpcError.of(ErrorCodes.REFUSED, "roots_withheld", "the gateway keeps this server's directories"
                        + " as configured (policy.path_base): the client's roots are not offered").toResponse(m.get("id")));
                return;
            }
            long gatewayId = serverRequests.nextId();
            ObjectNode out = Messages.withId(m, com.fasterxml.jackson.databind.node.LongNode.valueOf(gatewayId));
            JsonNode token = Messages.progressToken(m);
            JsonNode gatewayToken = null;
            if (token != null) {
                gatewayToken = progress.forUpstream(from, token);
                ((ObjectNode) out.get("params").get("_meta")).set("progressToken", gatewayToken);
            }
            serverRequests.register(gatewayId, from, m.get("id"), gatewayToken);
            toAgent(from, method, out);
            deliver(out, from, related, true);
            return;
        }
        ObjectNode params = Messages.params(m);
        switch (method) {
            case "notifications/progress" -> {
                ClientCall owner = progress.clientCall(params.get("progressToken"));
                if (owner == null || owner.upstream != from) {
                    return;
                }
                ObjectNode out = m.deepCopy();
                ((ObjectNode) out.get("params")).set("progressToken", owner.clientProgressToken);
                toAgent(from, method, out);
                deliver(out, from, owner, false);
            }
            case "notifications/cancelled" -> {
                Long g = params.has("requestId") ? serverRequests.takeByUpstreamId(from, params.get("requestId")) : null;
                if (g != null) {
                    ObjectNode out = m.deepCopy();
                    ((ObjectNode) out.get("params")).put("requestId", g);
                    toAgent(from, method, out);
                    deliver(out, from, related, true);
                }
            }
            case "notifications/tools/list_changed" -> {
                lists.toolsChanged(from.name());
                toolsChecked.remove(from.name()); // issue 11: the bound declarations are checked again
                if (policy != null) {
                    // a changed list may be a rug pull: judge (and pin-check) the new declarations now
                    lists.discoverTools();
                }
                toAgent(from, method, m);
                deliver(m, from, null, false);
            }
            case "notifications/prompts/list_changed" -> {
                toAgent(from, method, m);
                deliver(m, from, null, false);
            }
            case "notifications/resources/list_changed" -> {
                resources.forget(from.name());
                toAgent(from, method, m);
                deliver(m, from, null, false);
            }
            case "notifications/resources/updated" -> {
                toAgent(from, method, m);
                deliver(m, from, null, false);
            }
            case "notifications/message", "notifications/tasks/status", "notifications/elicitation/complete" -> {
                toAgent(from, method, m);
                deliver(m, from, related, true);
            }
            default -> LOG.debugf("session %s: dropped upstream %s notification %s", logTag, from.name(), method);
        }
    }

    /**
     * Sends a message toward the client: on the stream of the request it belongs to when known; for stdio
     * (which says nothing of association) on the stream of a request in flight to the same upstream; else on
     * the standalone GET stream, buffered until the client opens it.
     */
    private void deliver(ObjectNode message, Upstream from, ClientCall related, boolean mayGuess) {
        ClientCall target = related;
        // HTTP upstreams say which request a message belongs to (by the stream it came on); only stdio needs a guess
        if (target == null && mayGuess && !from.tellsAssociation()) {
            synchronized (this) {
                for (ClientCall c : inflight.values()) {
                    if (c.upstream == from) {
                        target = c;
                        break;
                    }
                }
            }
        }
        if (target != null && !target.cancelled && target.stream.push(message)) {
            return;
        }
        streams.emit(streams.standalone(), codec.toString(message));
    }

    /**
     * Cloaks, in place, a message an upstream originated (requests and notifications alike): its params, and any
     * member it put beside them (issue 14): JSON-RPC defines none, yet they reach the client, which may show them.
     */
    private void toAgent(Upstream from, String method, ObjectNode message) {
        if (cloak == null) {
            return;
        }
        ObjectNode body = F.objectNode();
        message.fields().forEachRemaining(e -> {
            if (!ENVELOPE.contains(e.getKey())) {
                body.set(e.getKey(), e.getValue());
            }
        });
        if (body.size() == 1 && body.get("params") instanceof ObjectNode p) {
            cloak.toAgent(from.name(), method, p); // the usual message: its params, in place
        } else if (!body.isEmpty()) {
            // one payload, so a name found in params is cloaked beside them too; a member renamed (a key that is a
            // value) replaces the one it was
            cloak.toAgent(from.name(), method, body);
            message.retain(ENVELOPE);
            message.setAll(body);
        }
    }

    private void touch() {
        lastActivityNanos = System.nanoTime();
    }

    private static CompletableFuture<ObjectNode> done(ObjectNode response) {
        return CompletableFuture.completedFuture(response);
    }

    static ObjectNode errorFor(JsonNode clientId, Throwable err) {
        Throwable t = err;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof UpstreamException u) {
            return u.toRpcError().toResponse(clientId);
        }
        if (t instanceof RpcException r) {
            return r.error().toResponse(clientId);
        }
        LOG.warnf(t, "unexpected failure answering a request");
        return RpcError.of(ErrorCodes.INTERNAL_ERROR, "internal_error", "internal gateway error").toResponse(clientId);
    }

    /** Completes a cancelled call's future so its slot is freed; never reaches the client. */
    static final class CancelledByClient extends RuntimeException {
        CancelledByClient() {
            super("cancelled by the client", null, false, false);
        }
    }
}
