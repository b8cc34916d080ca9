package dev.cloakgate.cloak;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Token text upstreams wrote ({@code [EMAIL_0]} in a tool default, a description, a result, a sampling request),
 * in canonical form, and which upstream wrote it. It backs the defence in depth behind escaping, for a model that
 * rewrites what it was shown back into a token: the vault never issues a token an upstream already wrote (it is
 * burned), and a token whose text the target upstream wrote is not restored into a message to it unless that
 * upstream is an origin of the value ({@link Cloak#toUpstream}).
 *
 * <p>Bounded: at most {@link #MAX} token texts are kept. An upstream that writes one more is from then on taken
 * to have written every token (saturated), so the refusal still holds for it: bounded memory fails closed.
 * A session's record has its tenant's as parent, which keeps what upstreams declare (initialize, tools/list,
 * prompts/list) across sessions, since a client may fill in a default it listed in an earlier session.
 */
final class PlantedTokens {
    static final int MAX = 256;

    private final PlantedTokens parent;
    private final Map<String, Set<String>> writers = new HashMap<>();
    private final Set<String> saturated = new HashSet<>();

    PlantedTokens() {
        this(null);
    }

    PlantedTokens(PlantedTokens parent) {
        this.parent = parent;
    }

    /** {@code upstream} wrote {@code token} (canonical text) in something it sent. */
    synchronized void record(String upstream, String token) {
        if (upstream == null || saturated.contains(upstream)) {
            return;
        }
        Set<String> who = writers.get(token);
        if (who == null) {
            if (writers.size() >= MAX) {
                saturated.add(upstream);
                return;
            }
            who = new HashSet<>(2);
            writers.put(token, who);
        }
        who.add(upstream);
    }

    /** {@code upstream} declared {@code token}: kept by this record and by the parent (the tenant's). */
    void declared(String upstream, String token) {
        record(upstream, token);
        if (parent != null) {
            parent.record(upstream, token);
        }
    }

    /** Whether some upstream wrote this token text: the vault must not issue it. */
    boolean burned(String token) {
        synchronized (this) {
            if (writers.containsKey(token)) {
                return true;
            }
        }
        return parent != null && parent.burned(token);
    }

    /** Whether {@code upstream} wrote this token text, or wrote so many that it is taken to have. */
    boolean writtenBy(String upstream, String token) {
        synchronized (this) {
            if (saturated.contains(upstream) || writers.getOrDefault(token, Set.of()).contains(upstream)) {
                return true;
            }
        }
        return parent != null && parent.writtenBy(upstream, token);
    }
}
