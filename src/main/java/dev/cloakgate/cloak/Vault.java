package dev.cloakgate.cloak;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One session's mapping between values and tokens. Within a session the same value always gets the same
 * token; the vault remembers which upstreams a value came from (for token scope). It is bounded: at the limit
 * further values are still cloaked, as {@code [CATEGORY_REDACTED]}, never passed raw. A vault never crosses
 * sessions or tenants.
 */
public final class Vault {

    /** What a token stands for and which upstreams returned that value. */
    public record Entry(Category category, String value, Set<String> origins) {
    }

    private final int maxEntries;
    private final Map<String, String> tokenByValue = new HashMap<>();
    private final Map<String, Entry> entryByToken = new HashMap<>();
    private final Map<Category, Integer> next = new EnumMap<>(Category.class);

    public Vault(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /** The token for a value returned by {@code upstream} (null for a gateway-originated value). */
    public synchronized String tokenFor(Category category, String value, String upstream) {
        String key = category.ordinal() + ":" + value;
        String token = tokenByValue.get(key);
        if (token != null) {
            if (upstream != null) {
                entryByToken.get(token).origins().add(upstream);
            }
            return token;
        }
        if (entryByToken.size() >= maxEntries) {
            return Tokens.redacted(category);
        }
        int n = next.merge(category, 1, Integer::sum) - 1;
        token = Tokens.token(category, n);
        Set<String> origins = new LinkedHashSet<>();
        if (upstream != null) {
            origins.add(upstream);
        }
        tokenByValue.put(key, token);
        entryByToken.put(token, new Entry(category, value, origins));
        return token;
    }

    /** What a token stands for, or null when this vault never issued it. */
    public synchronized Entry resolve(String token) {
        Entry e = entryByToken.get(token);
        return e == null ? null : new Entry(e.category(), e.value(), Set.copyOf(e.origins()));
    }

    public synchronized int size() {
        return entryByToken.size();
    }
}
