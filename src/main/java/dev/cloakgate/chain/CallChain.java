package dev.cloakgate.chain;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The ordered stages of one kind of call, ending at the forward to the upstream (as Netty's pipeline: the order is
 * written in one place, {@link Builder}). Stages are decorators: the first in {@link #stages()} is outermost, so it
 * acts first on the way out and last on the way back. Built once per session and method; holds no per-call state.
 */
public final class CallChain {
    private final List<CallStage> stages;

    /** @param stages outermost first (see {@link Builder} for writing them in the order a call passes them) */
    public CallChain(List<CallStage> stages) {
        this.stages = List.copyOf(stages);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The stages, outermost first. */
    public List<CallStage> stages() {
        return stages;
    }

    /**
     * Runs {@code call} through the stages to {@code forward} (the session's: it owns in-flight tracking, ids and
     * progress tokens) and back. A stage that throws fails the call as a transport failure would (the session answers
     * with its error), never the thread that runs it.
     */
    public CompletableFuture<Reply> run(Call call, CallStage.Next forward) {
        return step(0, call, forward);
    }

    private CompletableFuture<Reply> step(int i, Call call, CallStage.Next forward) {
        try {
            if (i == stages.size()) {
                return forward.apply(call);
            }
            return stages.get(i).apply(call, c -> step(i + 1, c, forward));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Writes a chain in the order a call passes it: {@link #toUpstream} stages in the order they act going out,
     * {@link #aroundForward} stages directly around the forward (the first outermost), then {@link #toAgent} stages
     * in the order they act coming back. It composes them as decorators: the {@code toAgent} stages wrap everything
     * else (the last one written outermost), so each sees what the ones written before it made of the answer, and a
     * refusal from any stage going out passes them back untouched ({@link Reply.Kind#REFUSAL}).
     */
    public static final class Builder {
        private final List<CallStage> out = new ArrayList<>();
        private final List<CallStage> around = new ArrayList<>();
        private final List<CallStage> back = new ArrayList<>();

        private Builder() {
        }

        /** A stage that acts on the call on its way to the upstream, after those written before it. */
        public Builder toUpstream(CallStage stage) {
            out.add(stage);
            return this;
        }

        /**
         * A stage directly around the forward, inside every {@code toUpstream} stage: it sees the call last going out
         * and the upstream's answer (or the transport failure) first coming back.
         */
        public Builder aroundForward(CallStage stage) {
            around.add(stage);
            return this;
        }

        /** A stage that acts on what comes back, after those written before it. */
        public Builder toAgent(CallStage stage) {
            back.add(stage);
            return this;
        }

        public CallChain build() {
            List<CallStage> all = new ArrayList<>(back.size() + out.size() + around.size());
            for (int i = back.size() - 1; i >= 0; i--) {
                all.add(back.get(i));
            }
            all.addAll(out);
            all.addAll(around);
            return new CallChain(all);
        }
    }
}
