package dev.cloakgate.policy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Compact JSON with object keys sorted by UTF-16 code units, scalars as Jackson writes them: the same tree
 * always gives the same bytes, so its SHA-256 fingerprints a call or pins a tool definition regardless of the
 * key order a server or client happened to use.
 */
public final class CanonicalJson {
    private CanonicalJson() {
    }

    public static String write(JsonNode node) {
        StringBuilder b = new StringBuilder();
        write(node, b);
        return b.toString();
    }

    public static String sha256(JsonNode node) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(write(node).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(JsonNode node, StringBuilder b) {
        if (node == null || node.isMissingNode()) {
            b.append("null");
        } else if (node.isObject()) {
            List<String> keys = new ArrayList<>();
            Iterator<String> it = node.fieldNames();
            it.forEachRemaining(keys::add);
            Collections.sort(keys);
            b.append('{');
            for (int i = 0; i < keys.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(com.fasterxml.jackson.databind.node.TextNode.valueOf(keys.get(i)).toString()).append(':');
                write(node.get(keys.get(i)), b);
            }
            b.append('}');
        } else if (node.isArray()) {
            b.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                write(node.get(i), b);
            }
            b.append(']');
        } else {
            b.append(node.toString());
        }
    }
}
