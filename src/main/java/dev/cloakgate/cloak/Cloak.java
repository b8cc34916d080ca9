package dev.cloakgate.cloak;

import java.util.EnumMap;
import java.util.LinkedHashSet;
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
 * One session's cloak: toward the agent, the typed pass then the tripwire over what an upstream sent; toward
 * the upstream, tokens restored to values under the tenant's token scope, and raw PII the model wrote
 * reported. Logs, metrics and evidence carry categories, counts and upstream names, never a value.
 */
public final class Cloak {
    private static final Logger LOG = Logger.getLogger(Cloak.class);

    private final Cloaking t;
    private final String session;
    private final String logTag;
    private final Vault vault;

    Cloak(Cloaking tenant, String session) {
        this.t = tenant;
        this.session = session;
        this.logTag = LogTag.of(session);
        this.vault = new Vault(tenant.vaultMaxEntries);
    }

    /** Cloaks, in place, what {@code upstream} sent in answer to or alongside {@code method}. */
    public Counts toAgent(String upstream, String method, JsonNode payload) {
        if (payload == null || !payload.isContainerNode()) {
            return new Counts();
        }
        Counts typed = new Counts();
        t.walker.cloak(payload, vault, upstream, typed);
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
     * Restores tokens, in place, in what is about to go to {@code upstream}. Under token scope "upstream" a
     * token whose value came from another upstream refuses the whole message (-32001, token_scope).
     */
    public void toUpstream(String upstream, String tool, JsonNode params) {
        if (params == null || !params.isContainerNode()) {
            return;
        }
        Restorer.Result r = t.restorer.restore(params, vault);
        for (Vault.Entry e : r.used()) {
            if (e.origins().isEmpty() || e.origins().contains(upstream)) {
                continue;
            }
            Set<String> from = new LinkedHashSet<>(e.origins());
            boolean refuse = t.scope == TokenScope.UPSTREAM;
            t.evidence.record(new Event.CrossUpstreamRestore(t.tenant, session, from, upstream, tool,
                    e.category().name(), refuse));
            t.metrics.counter("cloakgate.token.cross_upstream", "tenant", t.tenant, "outcome",
                    refuse ? "refused" : "restored").increment();
            if (refuse) {
                throw RpcError.of(ErrorCodes.REFUSED, "token_scope", "a " + e.category() + " token from upstream '"
                        + String.join("', '", from) + "' may not be used in a call to upstream '" + upstream
                        + "' (token_scope is \"upstream\")").with("tool", tool == null ? "" : tool)
                        .with("upstream", upstream).with("category", e.category().name()).asException();
            }
            LOG.infof("tenant %s session %s: a %s token from %s restored into a call to %s", t.tenant, logTag,
                    e.category(), from, upstream);
        }
        if (!r.rawPii().isEmpty()) {
            for (Map.Entry<Category, Integer> e : r.rawPii().entrySet()) {
                t.metrics.counter("cloakgate.raw_pii", "tenant", t.tenant, "category", e.getKey().name())
                        .increment(e.getValue());
            }
            LOG.infof("tenant %s session %s: the model wrote raw PII into a call to %s: %s (reported, not blocked)",
                    t.tenant, logTag, upstream, names(r.rawPii()));
            t.evidence.record(new Event.RawPiiWritten(t.tenant, session, upstream, tool, names(r.rawPii())));
        }
    }

    /** A string with its tokens replaced, recording nothing: to route a resource URI before the full pass. */
    public String peek(String s) {
        return t.restorer.peek(s, vault);
    }

    Vault vault() {
        return vault;
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
