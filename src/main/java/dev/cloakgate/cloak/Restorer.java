package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Toward the upstream: tokens the vault issued are replaced by their values in every string and key the client
 * sent (so the tool gets the real address), and PII the model wrote itself, outside tokens, is counted per
 * category. Token-shaped text the vault never issued and {@code [X_REDACTED]} stay as they are. Then, and only
 * then, token shapes an upstream wrote are unescaped ({@link Tokens#unescape}), so an upstream receives its own
 * bytes back and text it wrote can never resolve to a value.
 */
public final class Restorer {
    private final Detection detection;

    public Restorer(Detection detection) {
        this.detection = detection;
    }

    /** What a restoration did: the vault entries it used and the raw PII found around them. */
    public record Result(List<Vault.Entry> used, Map<Category, Integer> rawPii) {
    }

    /** Restores in place (the caller owns the tree). */
    public Result restore(JsonNode node, Vault vault) {
        List<Vault.Entry> used = new ArrayList<>();
        Map<Category, Integer> raw = new EnumMap<>(Category.class);
        walk(node, vault, used, raw);
        return new Result(used, raw);
    }

    /** One string with its tokens replaced; nothing recorded (for routing a URI before the full pass). */
    public String peek(String s, Vault vault) {
        return Tokens.unescape(replace(s, vault, new ArrayList<>(), null));
    }

    private void walk(JsonNode node, Vault vault, List<Vault.Entry> used, Map<Category, Integer> raw) {
        TreeText.rewrite(node, (k, v, binaryField) -> "progressToken".equals(k) ? v
                : Tokens.unescape(replace(v, vault, used, raw)),
                k -> Tokens.unescape(Tokens.mayHoldToken(k) ? replace(k, vault, used, null) : k));
    }

    private String replace(String s, Vault vault, List<Vault.Entry> used, Map<Category, Integer> raw) {
        if (!Tokens.mayHoldToken(s)) {
            count(s, raw);
            return s;
        }
        Matcher m = Tokens.SHAPE.matcher(s);
        StringBuilder out = null;
        StringBuilder written = raw == null ? null : new StringBuilder(s.length());
        int at = 0;
        while (m.find()) {
            Vault.Entry e = vault.resolve(m.group());
            if (e == null) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(s.length() + 32);
            }
            out.append(s, at, m.start()).append(e.value());
            if (written != null) {
                // what the model wrote around the tokens; a space keeps neighbours from fusing into one value
                written.append(s, at, m.start()).append(' ');
            }
            used.add(e);
            at = m.end();
        }
        if (out == null) {
            count(s, raw);
            return s;
        }
        out.append(s, at, s.length());
        if (written != null) {
            written.append(s, at, s.length());
            count(written.toString(), raw);
        }
        return out.toString();
    }

    private void count(String modelWritten, Map<Category, Integer> raw) {
        if (raw == null || modelWritten.isEmpty()) {
            return;
        }
        for (Finding f : detection.find(modelWritten)) {
            raw.merge(f.category(), 1, Integer::sum);
        }
    }
}
