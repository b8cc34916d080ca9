package dev.cloakgate.cloak;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.google.i18n.phonenumbers.PhoneNumberUtil;

import dev.cloakgate.cloak.detect.CreditCardDetector;
import dev.cloakgate.cloak.detect.Detector;
import dev.cloakgate.cloak.detect.EmailDetector;
import dev.cloakgate.cloak.detect.IbanDetector;
import dev.cloakgate.cloak.detect.IpAddressDetector;
import dev.cloakgate.cloak.detect.NameFinderDetector;
import dev.cloakgate.cloak.detect.PhoneDetector;
import dev.cloakgate.cloak.detect.SecretDetector;
import dev.cloakgate.cloak.detect.UsSsnDetector;
import dev.cloakgate.tenant.DetectionSettings;
import opennlp.tools.namefind.TokenNameFinderModel;

/**
 * Builds a tenant's {@link Detection} from its settings, loading name-finder models once per file. A model
 * that cannot be read fails here, naming the key; a model that loads but detects nothing is caught by the
 * {@link SelfCheck}.
 */
public final class DetectionFactory {
    /** The bundled PERSON model, trained by the project (see DETECTION.md). */
    public static final String BUNDLED_PERSON_MODEL = "/models/cloakgate-person.bin";
    /** The name dictionary artifact inside the bundled model (a feature of the model, and the pre-filter's list). */
    static final String NAME_DICTIONARY = "person-names.dictionary";

    /** Detection could not be built; {@code key} is the JSON path of the setting at fault. */
    public static final class SetupException extends Exception {
        private final String key;

        public SetupException(String key, String message, Throwable cause) {
            super(message, cause);
            this.key = key;
        }

        public String key() {
            return key;
        }
    }

    private final Map<String, TokenNameFinderModel> models = new ConcurrentHashMap<>();

    public Detection build(DetectionSettings s) throws SetupException {
        List<Detector> d = new ArrayList<>();
        if (s.secrets()) {
            d.add(new SecretDetector());
        }
        if (s.creditCards()) {
            d.add(new CreditCardDetector());
        }
        if (s.ibans()) {
            d.add(new IbanDetector());
        }
        if (s.emails()) {
            d.add(new EmailDetector());
        }
        if (s.usSsns()) {
            d.add(new UsSsnDetector());
        }
        if (s.phoneNumbers()) {
            Set<String> supported = PhoneNumberUtil.getInstance().getSupportedRegions();
            for (String r : s.phoneRegions()) {
                if (!supported.contains(r)) {
                    throw new SetupException("$.detection.phone_regions", "region " + r
                            + " has no numbering plan in libphonenumber", null);
                }
            }
            d.add(new PhoneDetector(s.phoneRegions()));
        }
        if (s.ipAddresses()) {
            d.add(new IpAddressDetector());
        }
        if (s.nerEntityTypes().contains("PERSON")) {
            TokenNameFinderModel m = s.personModel() == null ? bundled()
                    : load(s.personModel(), "$.detection.person_model");
            d.add(new NameFinderDetector(m, Category.PERSON, knownNames(m)));
        }
        for (Map.Entry<String, Path> e : s.nerModels().entrySet()) {
            Category c = Category.parse(e.getKey());
            TokenNameFinderModel m = load(e.getValue(), "$.detection.ner_models." + e.getKey());
            d.add(new NameFinderDetector(m, c, knownNames(m)));
        }
        return new Detection(d, s.keyHints());
    }

    /**
     * The name tokens a model carries in its dictionaries (the bundled model has one of 51,437 given and
     * family names), lower-cased: what makes a lower-case or ALL-CAPS token worth running the model on.
     */
    private final Map<TokenNameFinderModel, Set<String>> names = new ConcurrentHashMap<>();

    private Set<String> knownNames(TokenNameFinderModel m) {
        return names.computeIfAbsent(m, model -> {
            Object dict = model.getArtifact(NAME_DICTIONARY);
            if (!(dict instanceof opennlp.tools.dictionary.Dictionary d)) {
                // an operator's model without our dictionary: no pre-filter, the model sees every token
                return NameFinderDetector.EVERY_TOKEN;
            }
            Set<String> out = new java.util.HashSet<>();
            for (opennlp.tools.util.StringList entry : d) {
                if (entry.size() == 1) {
                    out.add(entry.getToken(0).toLowerCase(java.util.Locale.ROOT));
                }
            }
            return Set.copyOf(out);
        });
    }

    private TokenNameFinderModel bundled() throws SetupException {
        try {
            return models.computeIfAbsent("classpath:" + BUNDLED_PERSON_MODEL, k -> {
                try (InputStream in = DetectionFactory.class.getResourceAsStream(BUNDLED_PERSON_MODEL)) {
                    if (in == null) {
                        throw new IllegalStateException("the bundled PERSON model is missing from the build");
                    }
                    return new TokenNameFinderModel(in);
                } catch (IOException e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
        } catch (IllegalStateException e) {
            throw new SetupException("$.detection.person_model", e.getMessage(), e);
        }
    }

    private TokenNameFinderModel load(Path path, String key) throws SetupException {
        try {
            return models.computeIfAbsent(path.toAbsolutePath().toString(), k -> {
                if (!Files.isReadable(path)) {
                    throw new IllegalStateException("model file " + path + " is not readable");
                }
                try (InputStream in = Files.newInputStream(path)) {
                    return new TokenNameFinderModel(in);
                } catch (IOException | RuntimeException e) {
                    throw new IllegalStateException("model file " + path + " is not an OpenNLP name-finder model ("
                            + e.getClass().getSimpleName() + ")", e);
                }
            });
        } catch (IllegalStateException e) {
            throw new SetupException(key, e.getMessage(), e);
        }
    }
}
