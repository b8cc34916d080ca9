package dev.cloakgate.chain;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Decision;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.Refusals;
import dev.cloakgate.upstream.UpstreamException;

/**
 * The policy's response stage for what carries content into the model's context (tools/call, resources/read,
 * prompts/get): after the upstream answered and before the cloak, so controls see real values and the model sees
 * neither them nor what a control removed. A result the link dropped unread for its size is the budget's refusal,
 * as it would have been after parsing.
 */
public final class PolicyResponse implements CallStage {
    private final PolicySession policy;

    public PolicyResponse(PolicySession policy) {
        this.policy = policy;
    }

    @Override
    public CompletableFuture<Reply> apply(Call call, Next next) {
        return next.apply(call).exceptionallyCompose(err -> {
            Reply refused = oversized(call, err);
            return refused != null ? CompletableFuture.completedFuture(refused) : CompletableFuture.failedFuture(err);
        }).thenApply(reply -> judged(call, reply));
    }

    /** Names the call as the policy records it: a resource read is recorded under its method. */
    private static String tool(Call call) {
        return "resources/read".equals(call.method()) ? call.method() : call.declaredName();
    }

    private Reply judged(Call call, Reply reply) {
        JsonNode payload = reply.payload();
        if (!reply.fromUpstream() || payload == null) {
            return reply;
        }
        boolean error = reply.isError();
        String tool = tool(call);
        Decision d = "prompts/get".equals(call.method())
                ? policy.promptResult(tool, call.upstream(), call.upstreamName(), payload, error)
                : policy.response(tool, call.upstream(), call.upstreamName(), payload, error);
        if (d instanceof Decision.Redact r) {
            ObjectNode out = reply.response().deepCopy();
            out.set(error ? "error" : "result", r.payload());
            return reply.with(out);
        }
        if (!(d instanceof Decision.Allow)) {
            // stands in for the upstream's answer, so the cloak still walks it (the tool name in it is the declared one)
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            out.put("jsonrpc", "2.0");
            out.set("id", reply.response().get("id"));
            out.set("error", Refusals.of(d, tool).toJson());
            return reply.with(out);
        }
        return reply;
    }

    /** The budget's refusal for a result dropped unread for its size; null for any other failure. */
    private Reply oversized(Call call, Throwable err) {
        Throwable t = err;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (!(t instanceof UpstreamException u) || u.reason() != UpstreamException.Reason.UPSTREAM_MESSAGE_TOO_LARGE) {
            return null;
        }
        String tool = tool(call);
        Decision d = policy.oversized(tool, call.upstream(), call.upstreamName(), u.bytes());
        return d == null ? null : call.refusal(Refusals.of(d, tool));
    }
}
