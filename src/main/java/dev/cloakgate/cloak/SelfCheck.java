package dev.cloakgate.cloak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Known values of every enabled category go through the real detection path; any that survives is a
 * failure. Constructing a detector is not evidence that it detects: a model that failed to load can look
 * healthy and cloak nothing, and the gateway would come up announcing protection it was not providing.
 */
public final class SelfCheck {
    private static final Map<Category, List<String[]>> SAMPLES = Map.of(
            Category.EMAIL, List.<String[]>of(new String[] { "Write to selfcheck.person@example.com today.", "selfcheck.person@example.com" }),
            Category.PHONE, List.<String[]>of(new String[] { "Call +33 6 12 34 56 78 after lunch.", "+33 6 12 34 56 78" }),
            Category.CREDIT_CARD, List.<String[]>of(new String[] { "Card 4111 1111 1111 1111 on file.", "4111 1111 1111 1111" }),
            Category.IBAN, List.<String[]>of(new String[] { "Pay to DE89 3704 0044 0532 0130 00 please.", "DE89 3704 0044 0532 0130 00" }),
            Category.US_SSN, List.<String[]>of(new String[] { "SSN 123-45-6789 on the form.", "123-45-6789" }),
            Category.IP_ADDRESS, List.<String[]>of(new String[] { "Login from 203.0.113.7 at noon.", "203.0.113.7" },
                    new String[] { "peer 2001:db8::8a2e:370:7334 closed", "2001:db8::8a2e:370:7334" }),
            Category.SECRET, List.<String[]>of(new String[] { "aws_access_key_id = AKIAQ3EGRE7NX6TRZ4MB", "AKIAQ3EGRE7NX6TRZ4MB" }),
            Category.PERSON, List.<String[]>of(new String[] { "The ticket was assigned to Marie Dubois yesterday.", "Marie Dubois" },
                    new String[] { "Please call James Okafor about the renewal.", "Okafor" }));

    private SelfCheck() {
    }

    /** The failures, one line each (empty when every enabled category detects its samples). */
    public static List<String> run(Detection detection) {
        List<String> failures = new ArrayList<>();
        Walker walker = new Walker(detection);
        for (Category c : detection.categories()) {
            List<String[]> samples = SAMPLES.get(c);
            if (samples == null) {
                continue; // operator-supplied models for other entity types have no known sample
            }
            for (String[] s : samples) {
                String out;
                try {
                    out = walker.cloakString(s[0], null, new Vault(16), null, new Counts());
                } catch (RuntimeException e) {
                    failures.add(c + ": detection failed (" + e.getClass().getSimpleName() + ")");
                    continue;
                }
                if (out.contains(s[1]) || !out.contains("[" + c.name() + "_")) {
                    failures.add(c + ": a known " + c + " value was not detected");
                }
            }
        }
        return failures;
    }
}
