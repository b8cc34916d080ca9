package dev.cloakgate.cloak;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What restoring tokens into a message found that is evidence only if the message goes out: values restored from
 * another upstream's tokens, raw PII the model wrote. The message may still be refused (by the policy, the budget)
 * or fail to reach the upstream (down, at its limit): then nothing was disclosed and nothing is recorded.
 * {@link #sent} records it, once.
 */
public final class Restoration {
    /** Nothing to record. */
    public static final Restoration NONE = new Restoration(List.of());

    private final List<Runnable> records;
    private final AtomicBoolean done = new AtomicBoolean();

    Restoration(List<Runnable> records) {
        this.records = List.copyOf(records);
    }

    /** The message was sent to the upstream: record what it carried (metrics, log, evidence). */
    public void sent() {
        if (!records.isEmpty() && done.compareAndSet(false, true)) {
            records.forEach(Runnable::run);
        }
    }
}
