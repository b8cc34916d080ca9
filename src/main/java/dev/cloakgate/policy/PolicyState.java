package dev.cloakgate.policy;

import java.io.IOException;
import java.nio.file.Path;

import dev.cloakgate.policy.control.Budget;

/**
 * What a tenant's policy keeps for as long as the gateway runs, whatever its file says over time: the pin store
 * and the decision trace (each one file, written by one object: two pin stores of one file in one process would
 * contend for its lock, two trace writers would interleave lines) and the budget's tenant-wide counts. Each
 * reload of the tenant file builds a new {@link Policy} over the same state.
 */
public final class PolicyState implements AutoCloseable {
    private final PinStore pins;
    private final DecisionTrace trace;
    private final Budget.TenantCounts budget = new Budget.TenantCounts();

    PolicyState(PinStore pins, DecisionTrace trace) {
        this.pins = pins;
        this.trace = trace;
    }

    /** The tenant's pins and trace under {@code dataDir} ({@code pins/{tenant}.json}, {@code trace/{tenant}.jsonl}). */
    public static PolicyState open(Path dataDir, String tenant) throws IOException {
        return open(dataDir, tenant, new FilePinStore(dataDir, tenant));
    }

    /** Issue 17: the trace under {@code dataDir}, the pins where {@code pins} keeps them (the shared database). */
    public static PolicyState open(Path dataDir, String tenant, PinStore pins) throws IOException {
        return new PolicyState(pins, new FileDecisionTrace(dataDir, tenant));
    }

    PinStore pins() {
        return pins;
    }

    DecisionTrace trace() {
        return trace;
    }

    Budget.TenantCounts budget() {
        return budget;
    }

    /** Writes what the trace has queued; the pins need nothing (each change is on disk when made). */
    @Override
    public void close() {
        trace.close();
    }
}
