package dev.cloakgate.cloak;

import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The first pass over everything an upstream sends toward the agent, on every surface: results and errors,
 * notifications, requests to the client, and the declarations that are never cloaked (initialize, tools/list,
 * prompts/list: schema defaults, enums, descriptions are the upstream's text as much as a result is). Token
 * shapes in every string value (discriminators included; not a progress token, which is the client's own by
 * then) and every key, and in text carried as base64, are escaped ({@link Tokens#escape}), and each is reported
 * as written by the upstream. It runs before anything inserts the gateway's own tokens, so those are never
 * escaped, and exactly once per payload: escaping is a reversible quoting, not an idempotent rewrite.
 */
final class Escaper {
    private Escaper() {
    }

    /** Escapes the tree in place; {@code written} gets each shape's canonical text, {@code counts} base64 outcomes. */
    static void escape(JsonNode root, Consumer<String> written, Counts counts) {
        // a progress token reaching the client is the client's own (the gateway swapped the upstream's out)
        TreeText.rewrite(root, (key, s, binaryField) -> "progressToken".equals(key) ? s
                : Base64Text.map(s, binaryField, t -> Tokens.escape(t, written), counts).value(),
                k -> Tokens.escape(k, written));
    }
}
