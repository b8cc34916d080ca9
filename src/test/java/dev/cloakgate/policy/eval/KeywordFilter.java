package dev.cloakgate.policy.eval;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The baseline the policy engine is compared against: what a team writes on the day it decides to "do something
 * about prompt injection". Plain case-insensitive substring matching of a fixed phrase list over every string in
 * the payload (object field names and string values, at any depth: a declaration's description and schema, the
 * arguments of a call, the text and structured content of a result, an error's message and data).
 *
 * <p>It is deliberately neither weakened nor tuned against the corpus: the list is the obvious one, no decoding,
 * no normalisation beyond lower-casing, no notion of who a sentence is addressed to. It exists to measure what
 * that alternative catches and how many legitimate calls it refuses.
 */
public final class KeywordFilter {
    /** Lower-case phrases; a payload is refused when any string contains any of them. */
    static final List<String> PHRASES = List.of(
            // instruction override
            "ignore previous instructions",
            "ignore all previous",
            "ignore the above",
            "disregard",
            "new instructions",
            "system prompt",
            "you are now",
            "act as",
            "jailbreak",
            "developer mode",
            // concealment and exfiltration
            "do not tell the user",
            "don't tell the user",
            "exfiltrate",
            // credentials
            "password",
            "api key",
            "api_key",
            "secret",
            "private key",
            "id_rsa",
            // paths and commands
            "../",
            "..\\",
            "/etc/passwd",
            "rm -rf",
            "drop table",
            // encodings and markup
            "base64",
            "<script");

    private KeywordFilter() {
    }

    /** Whether the filter refuses this payload. A null or missing payload is not refused. */
    public static boolean blocks(JsonNode payload) {
        if (payload == null) {
            return false;
        }
        Deque<JsonNode> todo = new ArrayDeque<>();
        todo.push(payload);
        while (!todo.isEmpty()) {
            JsonNode node = todo.pop();
            if (node.isTextual()) {
                if (matches(node.textValue())) {
                    return true;
                }
            } else if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (matches(e.getKey())) {
                        return true;
                    }
                    todo.push(e.getValue());
                }
            } else if (node.isArray()) {
                node.forEach(todo::push);
            }
        }
        return false;
    }

    /** The first phrase that matches, for reporting; null when none does. */
    public static String firstMatch(JsonNode payload) {
        if (payload == null) {
            return null;
        }
        String all = collect(payload, new StringBuilder()).toString().toLowerCase(Locale.ROOT);
        for (String p : PHRASES) {
            if (all.contains(p)) {
                return p;
            }
        }
        return null;
    }

    private static boolean matches(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        for (String p : PHRASES) {
            if (lower.contains(p)) {
                return true;
            }
        }
        return false;
    }

    private static StringBuilder collect(JsonNode node, StringBuilder out) {
        if (node.isTextual()) {
            out.append(node.textValue()).append('\n');
        } else if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                out.append(e.getKey()).append('\n');
                collect(e.getValue(), out);
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, out));
        }
        return out;
    }
}
