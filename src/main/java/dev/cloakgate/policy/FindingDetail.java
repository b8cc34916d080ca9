package dev.cloakgate.policy;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.Finding;
import dev.cloakgate.cloak.detect.CreditCardDetector;
import dev.cloakgate.cloak.detect.EmailDetector;
import dev.cloakgate.cloak.detect.IbanDetector;
import dev.cloakgate.cloak.detect.IpAddressDetector;
import dev.cloakgate.cloak.detect.PhoneDetector;
import dev.cloakgate.cloak.detect.SecretDetector;
import dev.cloakgate.cloak.detect.UsSsnDetector;
import dev.cloakgate.tenant.DetectionSettings;

/**
 * What a finding's detail may say about a payload. A detail goes to the decision trace, to the signed ledger
 * (append-only: what lands there cannot be taken back) and to the client's error, so it carries no value from
 * the payload, and a JSON pointer carries no key that might be one: keys are chosen by whoever wrote the payload
 * ({@code {"kwame.mensah@example.gh": {...}}}).
 *
 * <p>A key is written as itself only when it is plainly an identifier (ASCII letters, digits, {@code _ - $}, a
 * letter, {@code _} or {@code $} first, at most 64 characters, no run of five digits) and the cloak's
 * deterministic detectors find nothing in it; any other key is named by its position in its object,
 * {@code ~k0} for the first. RFC 6901 writes a {@code ~} only as {@code ~0} or {@code ~1}, so {@code ~k} cannot be
 * read as a real key. Every detail, whoever wrote it (a control, or a library such as the schema validator),
 * is also run through the same detectors, each value found replaced by its category ({@code [EMAIL]}).
 *
 * <p>The detectors are the deterministic ones (secrets, cards, IBANs, e-mails, SSNs, phone numbers, IP
 * addresses), all on whatever the tenant's {@code detection} block says, so this holds for tenants that do not
 * cloak. They need no model: a person's name written as an identifier ({@code marie_dubois}) is kept.
 */
public final class FindingDetail {
    /** The prefix of a key named by its position. */
    public static final String POSITION = "~k";
    /** A tool name in the record that no upstream declared and that is not plainly an identifier. */
    public static final String UNDECLARED = "~undeclared";
    private static final int MAX_IDENTIFIER = 64;
    private static final int MAX_DIGIT_RUN = 4;
    /**
     * What an identifier needs before a deterministic category can fit in it: five digits (a phone number, an
     * SSN, a card, an IBAN's digits) or 15 characters (the shortest IBAN, and the shortest secret format, a Slack
     * token). E-mails and IP addresses need an {@code @}, a dot or a colon, which no identifier holds. A shorter
     * identifier with fewer digits skips detection, which keeps a walk over many keys cheap.
     */
    private static final int SHORTEST_SECRET = 15;
    private static final int FEWEST_DIGITS = 5;

    private static final SecretDetector SECRETS = new SecretDetector();
    private static final Detection DETERMINISTIC = new Detection(List.of(SECRETS, new CreditCardDetector(),
            new IbanDetector(), new EmailDetector(), new UsSsnDetector(),
            new PhoneDetector(DetectionSettings.DEFAULT_PHONE_REGIONS), new IpAddressDetector()), false);

    private FindingDetail() {
    }

    /** Builds the detectors (the phone numbering plans take a moment) at start, not on the first finding. */
    static void preload() {
        DETERMINISTIC.categories();
    }

    /** One pointer segment for the key at {@code position} of its object. */
    public static String segment(String key, int position) {
        return identifier(key) ? key : POSITION + position;
    }

    /**
     * The pointer of a location given as its keys and indices from the root of {@code root} (a library's path,
     * such as a validation error's instance location), each key written as {@link #segment} writes it. A key
     * not found in the document is named {@code ~k?}.
     */
    public static String pointer(JsonNode root, List<Object> path) {
        StringBuilder b = new StringBuilder();
        JsonNode at = root;
        for (Object step : path) {
            b.append('/');
            if (step instanceof Integer i) {
                b.append(i);
                at = at == null ? null : at.get(i);
                continue;
            }
            String key = String.valueOf(step);
            int position = at == null || !at.isObject() ? -1 : positionOf(at, key);
            b.append(identifier(key) ? key : position < 0 ? POSITION + "?" : POSITION + position);
            at = at == null ? null : at.get(key);
        }
        return b.toString();
    }

    /** A tool name as a record outside the policy keeps it: as written when plainly an identifier, else withheld. */
    public static final String WITHHELD = "~withheld";

    /**
     * The tool name of an event no policy judged (a forwarded call, a restore, raw PII): the client chose it, and
     * under a prefix it may be anything ({@code pk__kwame.mensah@example.gh}), so only an identifier is kept.
     */
    public static String recordedTool(String tool) {
        return tool == null || identifier(tool) ? tool : WITHHELD;
    }

    /** {@code detail} with every value the detectors find replaced by its category. */
    public static String scrub(String detail) {
        if (detail == null || detail.isEmpty()) {
            return detail;
        }
        List<Finding> found = DETERMINISTIC.find(detail);
        if (found.isEmpty()) {
            return detail;
        }
        StringBuilder b = new StringBuilder(detail.length());
        int at = 0;
        for (Finding f : found) {
            b.append(detail, at, f.start()).append('[').append(f.category().name()).append(']');
            at = f.end();
        }
        return b.append(detail, at, detail.length()).toString();
    }

    /** Plainly an identifier, and nothing the detectors find. */
    static boolean identifier(String key) {
        int n = key.length();
        if (n == 0 || n > MAX_IDENTIFIER || !start(key.charAt(0))) {
            return false;
        }
        int run = 0;
        int digits = 0;
        boolean underscore = false;
        for (int i = 0; i < n; i++) {
            char c = key.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
                if (++run > MAX_DIGIT_RUN) {
                    return false;
                }
                continue;
            }
            run = 0;
            underscore |= c == '_';
            if (!(start(c) || c == '-')) {
                return false;
            }
        }
        if (digits < FEWEST_DIGITS && n < SHORTEST_SECRET) {
            return true;
        }
        // without five digits only a secret's format can match; the detectors want a value to stand apart from
        // word characters, and "id_AKIA..." hides the key from them unless '_' is read as a space
        java.util.function.Predicate<String> clean = digits >= FEWEST_DIGITS ? t -> DETERMINISTIC.find(t).isEmpty()
                : t -> {
                    List<Finding> f = new java.util.ArrayList<>(1);
                    SECRETS.detect(t, f);
                    return f.isEmpty();
                };
        return clean.test(key) && (!underscore || clean.test(key.replace('_', ' ')));
    }

    private static boolean start(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
    }

    private static int positionOf(JsonNode object, String key) {
        int i = 0;
        for (var it = object.fieldNames(); it.hasNext(); i++) {
            if (it.next().equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
