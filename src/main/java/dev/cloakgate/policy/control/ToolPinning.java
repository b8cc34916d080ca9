package dev.cloakgate.policy.control;

import java.io.IOException;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.CanonicalJson;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.PinStore;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/**
 * Pinned tool definitions: each tool's name, description and inputSchema are hashed at first sight and the
 * hash persisted; a later definition with another hash (a rug pull: approved as harmless, changed afterwards)
 * is quarantined until an operator accepts it with {@code pins accept}. A pin file that cannot be read or
 * written quarantines too: failing open here would accept the changed definition silently.
 */
public final class ToolPinning implements Control {
    private final PinStore pins;

    public ToolPinning(PinStore pins) {
        this.pins = pins;
    }

    @Override
    public String name() {
        return "tool_pinning";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.DISCOVERY;
    }

    /** The hash a definition is pinned by (what {@code pins accept} is given). */
    public static String definitionHash(ObjectNode declaration) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.set("name", declaration.get("name"));
        d.set("description", declaration.get("description"));
        d.set("inputSchema", declaration.get("inputSchema"));
        return CanonicalJson.sha256(d);
    }

    @Override
    public void inspect(Subject s, Findings out) {
        // the declaration as the server wrote it, not the copy other controls may have stripped
        String hash = definitionHash(s.declaration());
        try {
            if (pins.check(s.upstream(), s.upstreamTool(), hash) == PinStore.Check.CHANGED) {
                out.add(Action.BLOCK, "tool_quarantined", "the definition changed since it was pinned; an operator"
                        + " must accept it (pins accept)");
            }
        } catch (IOException e) {
            out.add(Action.BLOCK, "tool_quarantined", "the pin store cannot be used (" + e.getClass().getSimpleName() + ")");
        }
    }
}
