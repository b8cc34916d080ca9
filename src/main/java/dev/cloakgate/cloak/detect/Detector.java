package dev.cloakgate.cloak.detect;

import java.util.List;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;
import dev.cloakgate.cloak.NormalizedText;

/**
 * One category's detector: finds candidates and keeps only those its validator accepts. Implementations are
 * thread-safe and linear in the length of the text.
 */
public interface Detector {

    Category category();

    /** Appends the findings in {@code text} to {@code out}. */
    void detect(String text, List<Finding> out);

    /**
     * Appends the findings in a normalised view, in its coordinates. A detector that needs to know what the
     * normalisation removed (invisible characters as separators) overrides this; the others read the text.
     */
    default void detect(NormalizedText view, List<Finding> out) {
        detect(view.text(), out);
    }

    /**
     * Whether a value that a JSON key names as this category (say, under {@code "phone"}) is one; looser than
     * {@link #detect}, because the key is strong evidence. Defaults to finding the category anywhere in it.
     */
    default boolean acceptsHinted(String value) {
        java.util.ArrayList<Finding> f = new java.util.ArrayList<>(2);
        detect(value, f);
        return !f.isEmpty();
    }
}
