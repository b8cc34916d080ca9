package dev.cloakgate.chain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.cloak.Restoration;
import dev.cloakgate.jsonrpc.RpcError;

/**
 * One client request on its way to one upstream, as the chain's stages see it: the session has routed it (the
 * upstream is chosen, the name is the upstream's own); the stages change its params and may end it. One instance per
 * call: stages change it on the way out, on the thread that runs the chain, and read it on the way back, after the
 * forward completed (the future orders the two).
 */
public final class Call {
    private final String method;
    private final JsonNode clientId;
    private final String exposedName;
    private final String declaredName;
    private final String upstream;
    private final ObjectNode params;
    private Restoration restoration = Restoration.NONE;
    private final List<Runnable> whenSent = new ArrayList<>(2);
    private volatile boolean sent;
    private Runnable onHold = () -> { };
    private java.util.function.BooleanSupplier wanted = () -> true;
    private Map<Attribute<?>, Object> attributes;

    /**
     * @param exposedName {@code params.name} as the agent wrote it (null when the method has none)
     * @param declaredName the same name with the token shapes the agent saw escaped unescaped: the name the tenant's
     *        tools are declared, judged and recorded under
     * @param params the params the upstream will receive (a copy of the client's, with the upstream's own name):
     *        stages change them in place
     */
    public Call(String method, JsonNode clientId, String exposedName, String declaredName, String upstream,
            ObjectNode params) {
        this.method = method;
        this.clientId = clientId;
        this.exposedName = exposedName;
        this.declaredName = declaredName;
        this.upstream = upstream;
        this.params = params;
    }

    public String method() {
        return method;
    }

    /** The client's JSON-RPC id (a refusal answers under it). */
    public JsonNode clientId() {
        return clientId;
    }

    public String exposedName() {
        return exposedName;
    }

    public String declaredName() {
        return declaredName;
    }

    /** The upstream's configured name. */
    public String upstream() {
        return upstream;
    }

    /** The upstream-bound params, changed in place by the stages going out (restored, redacted). */
    public ObjectNode params() {
        return params;
    }

    /** The tool or prompt name as the upstream declared it, read from the params as they are now. */
    public String upstreamName() {
        return params.path("name").asText(null);
    }

    /** A refusal of this call under the client's id: ends the call, no later stage touches it. */
    public Reply refusal(RpcError error) {
        return Reply.refusal(error.toResponse(clientId));
    }

    /** What restoring tokens into the params found, recorded once the call was sent. */
    public Restoration restoration() {
        return restoration;
    }

    /** Set by the restore stage. */
    public void restoration(Restoration r) {
        this.restoration = r == null ? Restoration.NONE : r;
    }

    /**
     * Runs {@code r} once the message was written to the upstream, after the restoration is recorded; never when the
     * call was refused or the link did not take it (nothing was disclosed then). Register on the way out.
     */
    public void whenSent(Runnable r) {
        whenSent.add(r);
    }

    /** Whether the message was written to the upstream: a failure after it may have taken effect, one before not. */
    public boolean sent() {
        return sent;
    }

    /** Called by the forward (the end of the chain) once the upstream link wrote the message. */
    public void markSent() {
        sent = true;
        restoration.sent();
        whenSent.forEach(Runnable::run);
    }

    /** Set by the session: how to keep the client waiting (its answer will take a while: stream, keep-alives flowing). */
    public void whenHeld(Runnable r) {
        this.onHold = r;
    }

    /** Set by the session: whether anyone still waits for this call (its client did not cancel, its session is open). */
    public void wanted(java.util.function.BooleanSupplier w) {
        this.wanted = w;
    }

    /** False once the client cancelled the call or the session ended: a held call must not be sent then. */
    public boolean wanted() {
        return wanted.getAsBoolean();
    }

    /** A stage holds the call (an approval is awaited): the client is told to wait on a stream, not to time out. */
    public void held() {
        onHold.run();
    }

    /**
     * What a stage learned that a later one needs, under a typed key (the gate sets the release hash, task id,
     * operation id and approval digest; it declares the keys beside its stages). Null when unset.
     */
    @SuppressWarnings("unchecked")
    public <T> T get(Attribute<T> key) {
        return attributes == null ? null : (T) attributes.get(key);
    }

    public <T> void set(Attribute<T> key, T value) {
        if (attributes == null) {
            attributes = new HashMap<>(4);
        }
        attributes.put(key, key.type().cast(value));
    }

    /** A key of {@link #get}/{@link #set}: identity is the instance, so declare each once as a constant. */
    public static final class Attribute<T> {
        private final String name;
        private final Class<T> type;

        private Attribute(String name, Class<T> type) {
            this.name = name;
            this.type = type;
        }

        public static <T> Attribute<T> of(String name, Class<T> type) {
            return new Attribute<>(name, type);
        }

        public String name() {
            return name;
        }

        Class<T> type() {
            return type;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
