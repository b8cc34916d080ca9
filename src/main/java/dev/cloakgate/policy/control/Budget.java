package dev.cloakgate.policy.control;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;
import dev.cloakgate.tenant.PolicySettings;

/**
 * Limits that bound what one runaway agent can spend: calls per session, per tool within a session, per tenant
 * per minute; the size of one result; and a per-tool circuit breaker that stops calling a tool after repeated
 * errors (an agent retrying a failing tool in a loop), tenant-wide, for a cool-down.
 */
public final class Budget implements Control {
    private final PolicySettings.Budget limits;
    private final LongSupplier nanos;
    private final Map<String, Counts> sessions = new ConcurrentHashMap<>();
    private final TenantCounts tenant;

    /**
     * What the budget counts for the whole tenant: calls in the current minute and each tool's breaker. Kept
     * across reloads of the tenant file, so a reload neither resets the tenant's rate nor closes an open breaker;
     * sessions of the previous configuration count into the same numbers.
     */
    public static final class TenantCounts {
        private final Map<String, Breaker> breakers = new ConcurrentHashMap<>();
        private long minute = Long.MIN_VALUE;
        private int calls;
    }

    private static final class Counts {
        int calls;
        final Map<String, Integer> perTool = new HashMap<>();
    }

    private static final class Breaker {
        int consecutiveErrors;
        long openUntil = Long.MIN_VALUE;
    }

    public Budget(PolicySettings.Budget limits, LongSupplier nanos, TenantCounts tenant) {
        this.limits = limits;
        this.nanos = nanos;
        this.tenant = tenant;
    }

    public Budget(PolicySettings.Budget limits, LongSupplier nanos) {
        this(limits, nanos, new TenantCounts());
    }

    public Budget(PolicySettings.Budget limits, TenantCounts tenant) {
        this(limits, System::nanoTime, tenant);
    }

    public Budget(PolicySettings.Budget limits) {
        this(limits, System::nanoTime);
    }

    @Override
    public String name() {
        return "budget";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.REQUEST || stage == Stage.RESPONSE;
    }

    @Override
    public void inspect(Subject s, Findings out) {
        if (s.stage() == Stage.REQUEST) {
            request(s, out);
        } else {
            response(s, out);
        }
    }

    /** Forgets a closed session's counts. */
    public void forget(String session) {
        sessions.remove(session);
    }

    private void request(Subject s, Findings out) {
        long now = nanos.getAsLong();
        Breaker b = tenant.breakers.get(s.tool());
        if (b != null) {
            synchronized (b) {
                if (now < b.openUntil) {
                    out.add(Action.BLOCK, "circuit_open", "the tool failed " + limits.breakerErrors()
                            + " times in a row; calls resume after " + limits.breakerSeconds() + " s");
                    return;
                }
            }
        }
        synchronized (tenant) {
            long m = now / 60_000_000_000L;
            if (m != tenant.minute) {
                tenant.minute = m;
                tenant.calls = 0;
            }
            if (++tenant.calls > limits.tenantCallsPerMinute()) {
                out.add(Action.BLOCK, "budget_exceeded", "tenant_calls_per_minute (" + limits.tenantCallsPerMinute() + ")");
                return;
            }
        }
        Counts c = sessions.computeIfAbsent(s.session(), k -> new Counts());
        synchronized (c) {
            if (++c.calls > limits.sessionCalls()) {
                out.add(Action.BLOCK, "budget_exceeded", "session_calls (" + limits.sessionCalls() + ")");
                return;
            }
            int t = c.perTool.merge(s.tool(), 1, Integer::sum);
            if (t > limits.toolCalls()) {
                out.add(Action.BLOCK, "budget_exceeded", "tool_calls (" + limits.toolCalls() + ") for this tool");
            }
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper M = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The result's JSON length in bytes, counted while streaming it out: no copy of a large result is built. */
    static long utf8Length(com.fasterxml.jackson.databind.JsonNode node) {
        long[] n = new long[1];
        java.io.OutputStream counter = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                n[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                n[0] += len;
            }
        };
        try {
            M.writeValue(counter, node);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return n[0];
    }

    private void response(Subject s, Findings out) {
        boolean failed = s.error() || s.payload().path("isError").asBoolean(false);
        Breaker b = tenant.breakers.computeIfAbsent(s.tool(), k -> new Breaker());
        synchronized (b) {
            if (failed) {
                if (++b.consecutiveErrors >= limits.breakerErrors()) {
                    b.openUntil = nanos.getAsLong() + limits.breakerSeconds() * 1_000_000_000L;
                    b.consecutiveErrors = 0;
                }
            } else {
                b.consecutiveErrors = 0;
            }
        }
        long bytes = utf8Length(s.payload());
        if (bytes > limits.outputBytes()) {
            out.add(Action.BLOCK, "output_too_large", "result of " + bytes + " bytes over output_bytes ("
                    + limits.outputBytes() + ")");
        }
    }
}
