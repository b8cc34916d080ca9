package dev.cloakgate.tenant;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tenant's {@code detection} block. Every key is validated: a typo here is the worst failure available,
 * because the operator believes a category is on when it is not.
 *
 * @param personModel an OpenNLP name-finder model file, or null for the bundled one
 * @param nerModels models for entity types other than PERSON, by type
 */
public record DetectionSettings(boolean emails, boolean phoneNumbers, boolean creditCards, boolean ibans,
        boolean usSsns, boolean ipAddresses, boolean secrets, Set<String> nerEntityTypes, Path personModel,
        Map<String, Path> nerModels, List<String> phoneRegions, boolean keyHints) {

    public static final List<String> DEFAULT_PHONE_REGIONS = List.of("US", "GB", "FR", "DE", "ES", "IT", "NL", "BE",
            "CH", "AT", "IE", "PT", "BR", "IN", "AU", "CA");

    public DetectionSettings {
        nerEntityTypes = Set.copyOf(nerEntityTypes);
        nerModels = Map.copyOf(nerModels);
        phoneRegions = List.copyOf(phoneRegions);
    }

    public static DetectionSettings defaults() {
        return new DetectionSettings(true, true, true, true, true, true, true, Set.of("PERSON"), null, Map.of(),
                DEFAULT_PHONE_REGIONS, true);
    }
}
