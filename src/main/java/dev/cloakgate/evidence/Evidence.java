package dev.cloakgate.evidence;

/** Where events go (the decision trace and the ledger). Implementations must not block the caller for long. */
@FunctionalInterface
public interface Evidence {
    void record(Event event);

    /** Drops everything (tests, tools). */
    Evidence NONE = e -> {
    };
}
