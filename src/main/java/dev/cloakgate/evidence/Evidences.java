package dev.cloakgate.evidence;

import java.util.List;

/** Several evidence sinks as one: each event goes to every sink, in order. */
public final class Evidences implements Evidence {
    private final List<Evidence> sinks;

    public Evidences(List<Evidence> sinks) {
        this.sinks = List.copyOf(sinks);
    }

    @Override
    public void record(Event event) {
        for (Evidence e : sinks) {
            e.record(event);
        }
    }
}
