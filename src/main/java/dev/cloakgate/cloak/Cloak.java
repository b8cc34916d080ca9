package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.LogTag;
import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.tenant.TokenScope;

/**
 * One session's cloak: toward the agent, token shapes the upstream wrote escaped, then the typed pass and the
 * tripwire over what it sent (declarations are only escaped); toward the upstream, tokens restored to values
 * under the tenant's token scope, then escaped shapes given back as the upstream wrote them, and raw PII the
 * model wrote reported. Logs, metrics and evidence carry categories, counts and upstream names, never a value.
 */
public final class Cloak {
    private static final Logger LOG = Logger.getLogger(Cloak.class);

    private final Cloaking t;
    private final String session;
    private final String logTag;
    private final Vault vault;
    private final Propagation propagation = new Propagation();

    Cloak(Cloaking tenant, String session) {
        this.t = tenant;
        this.session = session;
        this.logTag = LogTag.of(session);
        this.vault = new Vault(tenant.vaultMaxEntries, new PlantedTokens(tenant.declared));
    }

    /** Cloaks, in place, what {@code upstream} sent in answer to or alongside {@code method}. */
    public Counts toAgent(String upstream, String method, JsonNode payload) {
        if (payload == null || !payload.isContainerNode()) {
            return new Counts();
        }
        Counts typed = new Counts();
        // first: the shapes the upstream wrote, before the passes below add the gateway's own tokens
        Escaper.escape(payload, token -> vault.planted().record(upstream, token), typed);
        countBase64(typed);
        t.walker.cloak(payload, vault, upstream, typed);
        // issue 14: the names found, and those the session found before, wherever the typed pass left them
        propagation.apply(payload, typed.names(), vault, upstream, typed);
        Counts caught = t.tripwire.sweep(payload, vault, upstream);
        for (Map.Entry<Category, Integer> e : typed.cloaked().entrySet()) {
            t.metrics.counter("cloakgate.cloaked", "tenant", t.tenant, "category", e.getKey().name()).increment(e.getValue());
        }
        for (Map.Entry<String, Integer> e : typed.skipped().entrySet()) {
            t.metrics.counter("cloakgate.cloak.skipped", "tenant", t.tenant, "key", e.getKey()).increment(e.getValue());
        }
        for (Map.Entry<Category, Integer> e : caught.cloaked().entrySet()) {
            t.metrics.counter("cloakgate.tripwire", "tenant", t.tenant, "category", e.getKey().name()).increment(e.getValue());
        }
        if (typed.total() + caught.total() > 0 || method.indexOf('/') > 0 && !method.startsWith("notifications/")) {
            t.evidence.record(new Event.Cloaked(t.tenant, session, upstream, method, names(typed.cloaked()),
                    names(caught.cloaked())));
        }
        return typed;
    }

    /**
     * {@code value} cloaked as {@link #toAgent} does, for any JSON value: an object or array in place (the same node
     * is returned); a bare string or number, which a careless upstream may send as a result or an error, as the one
     * element of an array, returned anew (issue 14: it passed uncloaked).
     */
    public JsonNode cloaked(String upstream, String method, JsonNode value) {
        if (value == null || value.isContainerNode()) {
            toAgent(upstream, method, value);
            return value;
        }
        com.fasterxml.jackson.databind.node.ArrayNode one = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .arrayNode().add(value);
        toAgent(upstream, method, one);
        return one.get(0);
    }

    /**
     * Escapes, in place, what {@code upstream} declared (its initialize result, tools/list, prompts/list): these
     * are the contract the model calls against and are never cloaked, but token shapes in them are the
     * upstream's text like any other. The shapes are remembered for the tenant too, since a client may fill in
     * a default it listed in another session.
     */
    public void declared(String upstream, JsonNode payload) {
        if (payload == null || !payload.isContainerNode()) {
            return;
        }
        Counts counts = new Counts();
        Escaper.escape(payload, token -> vault.planted().declared(upstream, token), counts);
        countBase64(counts);
    }

    /**
     * Restores tokens, in place, in what is about to go to {@code upstream}. Under token scope "upstream" a
     * token whose value came from another upstream refuses the whole message (-32001, token_scope). A token
     * whose text {@code upstream} wrote itself, restored into a message to it when it is not an origin of the
     * value, refuses the whole message under any scope (-32001, token_planted): that is a model that rewrote an
     * escaped shape back into a token, and the upstream would harvest another's value with it. Refusals are
     * recorded at once; what the message carries (values restored across upstreams, raw PII the model wrote) is
     * returned, to be recorded once it was sent.
     */
    public Restoration toUpstream(String upstream, String tool, JsonNode params) {
        if (params == null || !params.isContainerNode()) {
            return Restoration.NONE;
        }
        Restorer.Result r = t.restorer.restore(params, vault);
        for (Vault.Entry e : r.used()) {
            if (!e.origins().contains(upstream) && vault.planted().writtenBy(upstream, e.token())) {
                Set<String> from = new LinkedHashSet<>(e.origins());
                t.evidence.record(new Event.CrossUpstreamRestore(t.tenant, session, from, upstream, tool,
                        e.category().name(), true));
                t.metrics.counter("cloakgate.token.cross_upstream", "tenant", t.tenant, "outcome", "planted").increment();
                LOG.infof("tenant %s session %s: refused a %s token whose text upstream %s wrote itself", t.tenant,
                        logTag, e.category(), upstream);
                throw RpcError.of(ErrorCodes.REFUSED, "token_planted", "a " + e.category() + " token whose text"
                        + " upstream '" + upstream + "' wrote itself may not be restored into a message to it (the"
                        + " value came from " + (from.isEmpty() ? "the gateway" : "upstream '" + String.join("', '", from)
                        + "'") + "); send what the upstream wrote as it was shown").with("tool", tool == null ? "" : tool)
                        .with("upstream", upstream).with("category", e.category().name()).asException();
            }
        }
        List<Runnable> onSent = new ArrayList<>();
        for (Vault.Entry e : r.used()) {
            if (e.origins().isEmpty() || e.origins().contains(upstream)) {
                continue;
            }
            Set<String> from = new LinkedHashSet<>(e.origins());
            if (t.scope == TokenScope.UPSTREAM) {
                t.evidence.record(new Event.CrossUpstreamRestore(t.tenant, session, from, upstream, tool,
                        e.category().name(), true));
                t.metrics.counter("cloakgate.token.cross_upstream", "tenant", t.tenant, "outcome", "refused").increment();
                throw RpcError.of(ErrorCodes.REFUSED, "token_scope", "a " + e.category() + " token from upstream '"
                        + String.join("', '", from) + "' may not be used in a call to upstream '" + upstream
                        + "' (token_scope is \"upstream\")").with("tool", tool == null ? "" : tool)
                        .with("upstream", upstream).with("category", e.category().name()).asException();
            }
            onSent.add(() -> {
                t.evidence.record(new Event.CrossUpstreamRestore(t.tenant, session, from, upstream, tool,
                        e.category().name(), false));
                t.metrics.counter("cloakgate.token.cross_upstream", "tenant", t.tenant, "outcome", "restored").increment();
                LOG.infof("tenant %s session %s: a %s token from %s restored into a call to %s", t.tenant, logTag,
                        e.category(), from, upstream);
            });
        }
        if (!r.rawPii().isEmpty()) {
            Map<Category, Integer> raw = r.rawPii();
            onSent.add(() -> {
                for (Map.Entry<Category, Integer> e : raw.entrySet()) {
                    t.metrics.counter("cloakgate.raw_pii", "tenant", t.tenant, "category", e.getKey().name())
                            .increment(e.getValue());
                }
                LOG.infof("tenant %s session %s: the model wrote raw PII into a call to %s: %s (reported, not blocked)",
                        t.tenant, logTag, upstream, names(raw));
                t.evidence.record(new Event.RawPiiWritten(t.tenant, session, upstream, tool, names(raw)));
            });
        }
        return onSent.isEmpty() ? Restoration.NONE : new Restoration(onSent);
    }

    /** A string with its tokens replaced, recording nothing: to route a resource URI before the full pass. */
    public String peek(String s) {
        return t.restorer.peek(s, vault);
    }

    Vault vault() {
        return vault;
    }

    private void countBase64(Counts counts) {
        for (Map.Entry<String, Integer> e : counts.base64().entrySet()) {
            t.metrics.counter("cloakgate.base64", "tenant", t.tenant, "outcome", e.getKey()).increment(e.getValue());
        }
    }

    private static Map<String, Integer> names(Map<Category, Integer> counts) {
        Map<String, Integer> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k.name(), v));
        return out;
    }

    static Map<Category, Integer> none() {
        return new EnumMap<>(Category.class);
    }
}
