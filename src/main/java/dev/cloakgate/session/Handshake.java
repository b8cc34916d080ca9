package dev.cloakgate.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;
import dev.cloakgate.upstream.Upstream;
import dev.cloakgate.upstream.UpstreamException;

/**
 * The initialize handshake across all of a session's upstreams. Each gets the client's own params (so each
 * sees the client's capabilities); their versions must agree, because the gateway does not translate between
 * protocol dialects; the client gets the union of capabilities under the gateway's serverInfo.
 */
final class Handshake {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final Map<String, Upstream> upstreams;
    private final String gatewayVersion;
    private final BiConsumer<String, JsonNode> declared;

    /**
     * @param declared applied to a copy of each upstream's result before it is merged (it escapes the token
     * shapes an upstream wrote in its instructions and capabilities, for a sanitizing tenant)
     */
    Handshake(Map<String, Upstream> upstreams, String gatewayVersion, BiConsumer<String, JsonNode> declared) {
        this.upstreams = upstreams;
        this.gatewayVersion = gatewayVersion;
        this.declared = declared;
    }

    private record Outcome(Upstream upstream, ObjectNode result, UpstreamException failure) {
    }

    CompletableFuture<ObjectNode> run(ObjectNode clientParams) {
        ObjectNode params = clientParams.deepCopy();
        String requested = params.path("protocolVersion").asText(null);
        String offer = ProtocolVersions.offer(requested);
        params.put("protocolVersion", offer);

        List<CompletableFuture<Outcome>> attempts = new ArrayList<>();
        for (Upstream u : upstreams.values()) {
            attempts.add(u.initialize(params).handle((r, t) -> t == null ? new Outcome(u, r, null)
                    : new Outcome(u, null, asUpstreamFailure(u, t))));
        }
        return CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<Outcome> ok = new ArrayList<>();
            List<Outcome> failed = new ArrayList<>();
            for (CompletableFuture<Outcome> a : attempts) {
                Outcome o = a.join();
                (o.failure == null ? ok : failed).add(o);
            }
            if (ok.isEmpty()) {
                StringBuilder why = new StringBuilder("no upstream could be initialized:");
                for (Outcome o : failed) {
                    why.append(' ').append(o.failure.getMessage()).append(';');
                }
                RpcError e = RpcError.of(ErrorCodes.INTERNAL_ERROR, UpstreamException.Reason.UPSTREAM_UNAVAILABLE.code(),
                        why.substring(0, why.length() - 1));
                throw e.with("upstream", failed.get(0).upstream.name()).asException();
            }
            String agreed = agreedVersion(ok, offer);
            for (Upstream u : upstreams.values()) {
                u.requireVersion(agreed);
            }
            List<Outcome> shown = new ArrayList<>();
            for (Outcome o : ok) {
                // a copy: the upstream keeps its own result (capabilities route requests)
                ObjectNode copy = o.result.deepCopy();
                declared.accept(o.upstream.name(), copy);
                shown.add(new Outcome(o.upstream, copy, null));
            }
            return result(shown, agreed);
        });
    }

    /** The version every upstream answered with; refuses naming the first upstream that diverged. */
    private static String agreedVersion(List<Outcome> ok, String offer) {
        Map<String, String> versions = new LinkedHashMap<>();
        for (Outcome o : ok) {
            versions.put(o.upstream.name(), o.result.path("protocolVersion").asText());
        }
        String reference = versions.containsValue(offer) ? offer : versions.values().iterator().next();
        for (Map.Entry<String, String> e : versions.entrySet()) {
            if (!e.getValue().equals(reference)) {
                throw mismatch(e.getKey(), "upstream '" + e.getKey() + "' negotiated protocol version " + e.getValue()
                        + " while the others use " + reference + "; the gateway does not translate between versions",
                        versions);
            }
        }
        if (!ProtocolVersions.supported(reference)) {
            String first = versions.keySet().iterator().next();
            throw mismatch(first, "upstream '" + first + "' negotiated protocol version " + reference
                    + ", which the gateway does not serve (it serves " + String.join(", ", ProtocolVersions.SUPPORTED)
                    + ")", versions);
        }
        return reference;
    }

    private static RuntimeException mismatch(String upstream, String message, Map<String, String> versions) {
        ObjectNode v = F.objectNode();
        versions.forEach(v::put);
        return RpcError.of(ErrorCodes.INTERNAL_ERROR, UpstreamException.Reason.PROTOCOL_VERSION_MISMATCH.code(), message)
                .with("upstream", upstream).with("versions", v).asException();
    }

    private ObjectNode result(List<Outcome> ok, String version) {
        ObjectNode result = F.objectNode();
        result.put("protocolVersion", version);
        List<JsonNode> caps = new ArrayList<>();
        for (Outcome o : ok) {
            caps.add(o.result.path("capabilities"));
        }
        result.set("capabilities", CapabilityMerge.merge(caps));
        ObjectNode info = result.putObject("serverInfo");
        info.put("name", "cloakgate");
        info.put("version", gatewayVersion);
        String instructions = instructions(ok);
        if (instructions != null) {
            result.put("instructions", instructions);
        }
        return result;
    }

    /** One upstream's instructions pass as they are; several are labelled with the upstream they came from. */
    private String instructions(List<Outcome> ok) {
        List<Outcome> with = new ArrayList<>();
        for (Outcome o : ok) {
            if (o.result.path("instructions").isTextual()) {
                with.add(o);
            }
        }
        if (with.isEmpty()) {
            return null;
        }
        if (upstreams.size() == 1) {
            return with.get(0).result.path("instructions").textValue();
        }
        StringBuilder sb = new StringBuilder();
        for (Outcome o : with) {
            if (sb.length() > 0) {
                sb.append("\n\n");
            }
            sb.append("[").append(o.upstream.name()).append("] ").append(o.result.path("instructions").textValue());
        }
        return sb.toString();
    }

    private static UpstreamException asUpstreamFailure(Upstream u, Throwable t) {
        Throwable c = t;
        while (c instanceof CompletionException && c.getCause() != null) {
            c = c.getCause();
        }
        return c instanceof UpstreamException x ? x
                : new UpstreamException(u.name(), UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                        "failed to initialize (" + c.getClass().getSimpleName() + ")");
    }
}
