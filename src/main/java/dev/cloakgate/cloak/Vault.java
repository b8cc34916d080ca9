package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One session's mapping between values and tokens. Within a session the same value always gets the same
 * token; the vault remembers which upstreams a value came from (for token scope). It is bounded: at the limit
 * further values are still cloaked, as {@code [CATEGORY_REDACTED]}, never passed raw. A vault never crosses
 * sessions or tenants. It never issues a token an upstream already wrote ({@link PlantedTokens}): that text
 * stays the upstream's, and a model that quotes it cannot reach a value with it.
 */
public final class Vault {

    /** A token, what it stands for and which upstreams returned that value. */
    public record Entry(String token, Category category, String value, Set<String> origins) {
    }

    private final int maxEntries;
    private final PlantedTokens planted;
    private final Map<String, String> tokenByValue = new HashMap<>();
    private final Map<String, Entry> entryByToken = new HashMap<>();
    private final Map<Category, Integer> next = new EnumMap<>(Category.class);
    /** The PERSON values, in the order their tokens were issued: what {@link Propagation} reads. */
    private final List<String> names = new ArrayList<>();

    public Vault(int maxEntries) {
        this(maxEntries, new PlantedTokens());
    }

    Vault(int maxEntries, PlantedTokens planted) {
        this.maxEntries = maxEntries;
        this.planted = planted;
    }

    /** What upstreams wrote in this session. */
    PlantedTokens planted() {
        return planted;
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
        do {
            // at most PlantedTokens.MAX tokens are burned, so this ends
            token = Tokens.token(category, next.merge(category, 1, Integer::sum) - 1);
        } while (planted.burned(token));
        Set<String> origins = new LinkedHashSet<>();
        if (upstream != null) {
            origins.add(upstream);
        }
        tokenByValue.put(key, token);
        entryByToken.put(token, new Entry(token, category, value, origins));
        if (category == Category.PERSON) {
            names.add(value);
        }
        return token;
    }

    /** What a token stands for, or null when this vault never issued it. */
    public synchronized Entry resolve(String token) {
        Entry e = entryByToken.get(token);
        return e == null ? null : new Entry(e.token(), e.category(), e.value(), Set.copyOf(e.origins()));
    }

    /** How many PERSON values the vault holds. */
    synchronized int names() {
        return names.size();
    }

    /** The PERSON values from the {@code from}th on, in the order they were issued. */
    synchronized List<String> namesFrom(int from) {
        return new ArrayList<>(names.subList(from, names.size()));
    }

    public synchronized int size() {
        return entryByToken.size();
    }
}
