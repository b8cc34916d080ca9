package dev.cloakgate.cloak;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * After the typed pass, a regex-only pass over the whole payload: every string value and every object key.
 * Deterministic, validated categories that survived are scrubbed (a key is renamed to its token) and a
 * warning is logged once per tenant and category, never with the value. It is not redundant: a dictionary
 * keyed by e-mail addresses survives the typed pass, which rewrites values only. Regex-only means no model,
 * so structural strings are never touched by a statistical false positive. Fail-open by construction: an
 * error leaves the typed result exactly as it was. Text carried as base64 is scanned as the text it decodes to
 * ({@link Base64Text}); binary that is not text is not scanned: a card number inside a JPEG is not there as
 * text, and a chance digit run in the base64 would corrupt the image for nothing.
 */
public final class Tripwire {
    private static final Logger LOG = Logger.getLogger(Tripwire.class);
    /** The categories whose validators make a regex finding certain enough to act on anywhere. */
    public static final Set<Category> CATEGORIES = EnumSet.of(Category.EMAIL, Category.CREDIT_CARD, Category.IBAN,
            Category.US_SSN, Category.SECRET, Category.IP_ADDRESS, Category.PHONE);

    private final Detection regexOnly;
    private final String tenant;
    private final Set<Category> warned = EnumSet.noneOf(Category.class);

    public Tripwire(Detection detection, String tenant) {
        this.regexOnly = detection.only(CATEGORIES);
        this.tenant = tenant;
    }

    /** Scrubs what survived in place; returns the counts of what it caught. Never throws. */
    public Counts sweep(JsonNode root, Vault vault, String upstream) {
        Counts caught = new Counts();
        try {
            // everything is found before anything is touched: only a completed pass is applied
            TreeText.rewrite(root, (k, s, binaryField) -> Base64Text.map(s, binaryField,
                    t -> scrub(t, vault, upstream, caught), null).value(), k -> scrub(k, vault, upstream, caught));
        } catch (RuntimeException e) {
            LOG.warnf("tenant %s: tripwire pass failed (%s); typed result kept", tenant, e.getClass().getSimpleName());
            return new Counts();
        }
        for (Category c : caught.cloaked().keySet()) {
            warnOnce(c);
        }
        return caught;
    }

    private String scrub(String s, Vault vault, String upstream, Counts caught) {
        List<Finding> found = regexOnly.find(s);
        if (found.isEmpty()) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        int at = 0;
        for (Finding f : found) {
            out.append(s, at, f.start()).append(vault.tokenFor(f.category(), s.substring(f.start(), f.end()), upstream));
            caught.cloaked(f.category());
            at = f.end();
        }
        return out.append(s, at, s.length()).toString();
    }

    private void warnOnce(Category c) {
        boolean first;
        synchronized (warned) {
            first = warned.add(c);
        }
        if (first) {
            LOG.warnf("tenant %s: tripwire caught %s that the typed pass left (value not logged; further catches of"
                    + " this category are counted in cloakgate_tripwire_total only)", tenant, c);
        }
    }
}
