package dev.cloakgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The identity of one exact tool call (seed "Signed approval receipts"): SHA-256 over {@code cloakpipe.co/tool-call/v1},
 * a newline and the JCS bytes of {@code {"release": "sha256:<hex>", "tool": <name>, "arguments": <arguments>}}. JCS
 * makes it independent of key order and number spelling; any change to an argument gives another fingerprint, so a
 * receipt approves exactly one call. Absent arguments fingerprint as {@code {}}, as the contract checks them.
 */
public final class CallFingerprint {
    static final JsonNode NO_ARGUMENTS = JsonNodeFactory.instance.objectNode();

    private CallFingerprint() {
    }

    /**
     * @param releaseHash the release hash as {@code sha256:<hex>}
     * @return 64 lower-case hex digits (a refusal's {@code data.fingerprint}, a receipt's subject)
     */
    public static String of(String releaseHash, String tool, JsonNode arguments) {
        ObjectNode call = JsonNodeFactory.instance.objectNode();
        call.put("release", releaseHash);
        call.put("tool", tool);
        call.set("arguments", arguments == null || arguments.isMissingNode() ? NO_ARGUMENTS : arguments);
        return Domains.hash(Domains.TOOL_CALL, call);
    }
}
