package dev.cloakgate.policy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The operator's side of pinned tool definitions, for the command line and the admin API alike: what is
 * quarantined and what changed in each definition, and accepting by tool or every pending change of one upstream.
 * Accepting takes the pending hashes the operator was shown, so a definition that changed again meanwhile stays
 * quarantined.
 */
public final class PinReview {
    private final PinStore pins;

    public PinReview(PinStore pins) {
        this.pins = pins;
    }

    /**
     * A quarantined tool: the pinned definition and hash, the pending ones, and what changed between them.
     * {@code pinned} is null for a pin kept before definitions were (then {@code changes} is empty).
     */
    public record Pending(String tool, String upstream, String name, String pinnedSha256, String pendingSha256,
            JsonNode pinned, JsonNode proposed, List<DefinitionDiff.Change> changes) {
    }

    /** Every pin, quarantined or not, in the store's order. */
    public Map<String, PinStore.Pin> all() throws IOException {
        return pins.all();
    }

    /** Every quarantined tool. */
    public List<Pending> pending() throws IOException {
        List<Pending> out = new ArrayList<>();
        for (PinStore.Pin p : pins.all().values()) {
            if (p.pending() != null) {
                out.add(pending(p));
            }
        }
        return out;
    }

    /** The quarantined tools of one upstream. */
    public List<Pending> pendingOf(String upstream) throws IOException {
        return pending().stream().filter(p -> p.upstream().equals(upstream)).toList();
    }

    /** The quarantined tool {@code upstream/name}, or null when it is not quarantined. */
    public Pending pendingTool(String tool) throws IOException {
        return pending().stream().filter(p -> p.tool().equals(tool)).findFirst().orElse(null);
    }

    public static Pending pending(PinStore.Pin p) {
        List<DefinitionDiff.Change> changes = p.definition() == null || p.pendingDefinition() == null ? List.of()
                : DefinitionDiff.of(p.definition(), p.pendingDefinition());
        return new Pending(p.tool(), p.upstream(), p.name(), p.sha256(), p.pending(), p.definition(),
                p.pendingDefinition(), changes);
    }

    /** Accepts the pending definition of {@code tool} if its hash is {@code sha256}; whether it was. */
    public boolean accept(String tool, String sha256) throws IOException {
        return pins.accept(tool, sha256);
    }

    /** Accepts the given reviewed changes (each the pending hash shown); the tools accepted. */
    public Set<String> accept(List<Pending> reviewed) throws IOException {
        Map<String, String> hashes = new LinkedHashMap<>();
        reviewed.forEach(p -> hashes.put(p.tool(), p.pendingSha256()));
        return pins.acceptAll(hashes);
    }

    public PinStore store() {
        return pins;
    }
}
