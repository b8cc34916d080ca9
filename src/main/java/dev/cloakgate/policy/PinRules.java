package dev.cloakgate.policy;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;

import dev.cloakgate.policy.PinStore.Check;
import dev.cloakgate.policy.PinStore.Pin;
import dev.cloakgate.policy.PinStore.Seen;

/**
 * How every {@link PinStore} changes its pins, whatever keeps them: the change is applied to all of a tenant's pins
 * read under the store's lock ({@link Locked#locked}) and written back only when it changed something.
 */
final class PinRules {
    private PinRules() {
    }

    /** A change's answer, and whether the pins must be written back. */
    record Outcome<T>(T value, boolean write) {
    }

    interface Change<T> {
        Outcome<T> apply(Map<String, Pin> pins) throws IOException;
    }

    /** A store's read-modify-write of all of a tenant's pins under its lock (a file lock, a row lock). */
    interface Locked {
        <T> T locked(Change<T> change) throws IOException;
    }

    /** The first sight of a tool pins it; another definition than the pinned one is pending (quarantined). */
    static Check check(Locked store, String key, Seen seen) throws IOException {
        String sha256 = seen.sha256();
        return store.locked(pins -> {
            Pin p = pins.get(key);
            if (p == null) {
                pins.put(key, new Pin(key, sha256, Instant.now().toString(), null, seen.definition(), null));
                return new Outcome<>(Check.PINNED_NOW, true);
            }
            if (p.definition() == null && seen.legacySha256() != null && p.sha256().equals(seen.legacySha256())) {
                // a version 1 pin of the same name, description and inputSchema: carried over to the full hash
                pins.put(key, new Pin(key, sha256, p.pinnedAt(), null, seen.definition(), null));
                return new Outcome<>(Check.SAME, true);
            }
            if (p.sha256().equals(sha256)) {
                boolean dirty = p.pending() != null || p.definition() == null && seen.definition() != null;
                if (dirty) {
                    pins.put(key, new Pin(key, p.sha256(), p.pinnedAt(), null,
                            p.definition() != null ? p.definition() : seen.definition(), null));
                }
                return new Outcome<>(Check.SAME, dirty);
            }
            boolean dirty = !sha256.equals(p.pending());
            if (dirty) {
                pins.put(key, new Pin(key, p.sha256(), p.pinnedAt(), sha256, p.definition(), seen.definition()));
            }
            return new Outcome<>(Check.CHANGED, dirty);
        });
    }

    static java.util.Set<String> acceptAll(Locked store, Map<String, String> reviewed) throws IOException {
        return store.locked(pins -> {
            java.util.Set<String> done = new java.util.LinkedHashSet<>();
            for (Map.Entry<String, String> r : reviewed.entrySet()) {
                Pin p = pins.get(r.getKey());
                if (p != null && p.pending() != null && p.pending().equals(r.getValue())) {
                    pins.put(r.getKey(), new Pin(r.getKey(), p.pending(), Instant.now().toString(), null,
                            p.pendingDefinition(), null));
                    done.add(r.getKey());
                }
            }
            return new Outcome<>(done, !done.isEmpty());
        });
    }
}
