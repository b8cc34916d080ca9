package dev.cloakgate.policy.control;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.CanonicalJson;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.DefinitionDiff;
import dev.cloakgate.policy.FindingDetail;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.PinStore;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/**
 * Pinned tool definitions: each tool's name, title, description, inputSchema and annotations are hashed at first
 * sight and the hash persisted; a later definition with another hash (a rug pull: approved as harmless, changed
 * afterwards, or an annotation such as {@code destructiveHint} dropped) is quarantined until an operator accepts
 * it with {@code pins accept}. A pin file that cannot be read or written quarantines too: failing open here would
 * accept the changed definition silently.
 *
 * <p>Each quarantine is logged once per gateway process at WARN, naming the tool and what changed as JSON pointers
 * and kinds of change (never the texts: descriptions are written by the upstream); {@code pins diff} shows them.
 */
public final class ToolPinning implements Control {
    private static final Logger LOG = Logger.getLogger(ToolPinning.class);
    /** The parts of a declaration that are pinned: what the model reads and what the policy trusts. */
    static final java.util.List<String> PINNED = java.util.List.of("name", "title", "description", "inputSchema",
            "annotations");
    private static final java.util.List<String> PINNED_V1 = java.util.List.of("name", "description", "inputSchema");
    private static final int LOGGED_CHANGES = 20;

    private final PinStore pins;
    private final Consumer<String> quarantined;
    /** {@code upstream/tool@hash} already logged by this process: one line per quarantine, not per listing. */
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    public ToolPinning(PinStore pins) {
        this(pins, upstream -> {
        });
    }

    /** @param quarantined told the upstream's name at each quarantine this process logs (a metric) */
    public ToolPinning(PinStore pins, Consumer<String> quarantined) {
        this.pins = pins;
        this.quarantined = quarantined;
    }

    @Override
    public String name() {
        return "tool_pinning";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.DISCOVERY;
    }

    /** The pinned parts of a declaration, as the pin file keeps them and {@code pins diff} shows them. */
    public static ObjectNode definition(ObjectNode declaration) {
        return parts(declaration, PINNED);
    }

    /** The hash a definition is pinned by (what {@code pins accept} is given). */
    public static String definitionHash(ObjectNode declaration) {
        return CanonicalJson.sha256(definition(declaration));
    }

    private static ObjectNode parts(ObjectNode declaration, java.util.List<String> names) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        for (String n : names) {
            JsonNode v = declaration.get(n);
            if (v != null) {
                d.set(n, v);
            }
        }
        return d;
    }

    /** The hash version 1 pin files used (name, description, inputSchema; absent ones as null). */
    static String legacyHash(ObjectNode declaration) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        PINNED_V1.forEach(n -> d.set(n, declaration.get(n)));
        return CanonicalJson.sha256(d);
    }

    @Override
    public void inspect(Subject s, Findings out) {
        // the declaration as the server wrote it, not the copy other controls may have stripped
        ObjectNode definition = definition(s.declaration());
        String hash = CanonicalJson.sha256(definition);
        try {
            if (pins.check(s.upstream(), s.upstreamTool(), new PinStore.Seen(hash, legacyHash(s.declaration()),
                    definition.deepCopy())) == PinStore.Check.CHANGED) {
                out.add(Action.BLOCK, "tool_quarantined", "the definition changed since it was pinned; an operator"
                        + " must accept it (pins accept)");
                log(s.upstream(), s.upstreamTool(), hash, definition);
            }
        } catch (IOException e) {
            out.add(Action.BLOCK, "tool_quarantined", "the pin store cannot be used (" + e.getClass().getSimpleName() + ")");
        }
    }

    private void log(String upstream, String tool, String hash, ObjectNode now) throws IOException {
        String key = upstream + "/" + tool;
        if (!logged.add(key + "@" + hash)) {
            return;
        }
        PinStore.Pin pin = pins.pin(key);
        String what = pin == null || pin.definition() == null
                ? "what changed is not known (pinned before definitions were kept)"
                : DefinitionDiff.summary(DefinitionDiff.of(pin.definition(), now), LOGGED_CHANGES);
        String shown = upstream + "/" + FindingDetail.recordedTool(tool);
        LOG.warnf("tool pinning: tenant %s quarantined %s, its definition changed since it was pinned: %s;"
                + " review with pins diff --tenant %s --tool %s, then pins accept", pins.tenant(), shown, what,
                pins.tenant(), shown);
        quarantined.accept(upstream);
    }
}
